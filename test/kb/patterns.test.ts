import { describe, expect, it } from 'vitest';
import { PatternSet, requiredLiterals } from '../../src/classify/patterns.ts';
import { checkPattern } from '../../src/kb/pattern-check.ts';
import { normalize } from '../../src/classify/normalize.ts';
import { corpus } from '../helpers/corpus.ts';
import { kb } from '../helpers/kb.ts';

describe('kb patterns run in linear time', () => {
  it.each([
    ['(a)\\1', /linear time/],
    ['foo(?=bar)', /linear time/],
    ['([unclosed', /linear time/],
  ])('rejects %s, which has no linear-time form', (pattern, why) => {
    expect(checkPattern(pattern)).toMatch(why);
  });

  it.each(['cuda[ \\t]{0,2}out of memory', 'tried to allocate [0-9.]{1,12} ?[KMGT]i?B', '\\(IMPORT FAILED\\)', '页面文件太小', '(a|aa){1,30}b', '(a+)+$'])(
    'accepts %s',
    (pattern) => expect(checkPattern(pattern)).toBeUndefined(),
  );

  it('answers at once on the inputs that make a backtracking engine take minutes', () => {
    // On V8 this pattern takes about a minute on a 50-character line and ten on 1,000 characters;
    // the test's own time limit would fail long before.
    const set = new PatternSet(['(a|aa){1,30}b', '(x+x+)+y', 'killed']);
    const found = (line: string) => [...set.scan([line])];
    for (const n of [50, 1000]) expect(found('a'.repeat(n))).toEqual([]);
    expect(found(`${'x'.repeat(1000)} killed`)).toEqual([{ pattern: 2, line: 0 }]);
  });

  it('finds every match case-insensitively, with ^ and $ at the ends of each line', () => {
    const set = new PatternSet(['^killed$', 'CUDA out of memory', '显存不足', '^$']);
    const lines = ['Killed', '  killed by the OOM killer', 'torch.OutOfMemoryError: cuda OUT OF MEMORY.', '', '报错：显存不足', 'killed'];
    const found = [...set.scan(lines)].map(({ pattern, line }) => [pattern, line]);
    expect(found.sort()).toEqual([[0, 0], [0, 5], [1, 2], [2, 4], [3, 3]].sort());
  });
});

describe('the literal looked for before a pattern runs', () => {
  it.each([
    ['cuda[ \\t]{0,2}out of memory', ['out of memory']],
    ['tried to allocate [0-9.]{1,12} ?[KMGT]i?B', ['tried to allocate ']],
    ['\\(IMPORT FAILED\\)', ['(import failed)']],
    ['os error\\s{1,3}1455|WinError 1455', ['os error', 'winerror 1455']],
    ['页面文件太小', ['页面文件太小']],
    ['^[ \\t]{0,12}Killed[ \\t]{0,4}$', ['killed']],
  ])('%s needs %j', (pattern, literals) => {
    expect(requiredLiterals(pattern)).toEqual(literals);
  });

  it.each(['(a|aa){1,30}b', 'x?y?z?', '[a-z]{3,9}', 'ab|[cd]{2,4}', 'a\\d{1,3}b'])('%s has none worth looking for', (pattern) => {
    expect(requiredLiterals(pattern)).toBeUndefined();
  });

  it("is in every corpus line any kb pattern matches (the shortcut never hides a match)", () => {
    const lines = corpus.flatMap((s) => normalize(s.text).lines);
    const misses: string[] = [];
    for (const sig of kb.signatures) {
      for (const p of sig.patterns) {
        const literals = requiredLiterals(p);
        if (!literals) continue;
        const re = new RegExp(p, 'iu');
        for (const l of lines) if (re.test(l) && !literals.some((x) => l.toLowerCase().includes(x))) misses.push(`${p} :: ${l.slice(0, 80)}`);
      }
    }
    expect(misses).toEqual([]);
    expect(kb.signatures.flatMap((s) => s.patterns).filter((p) => requiredLiterals(p)).length).toBeGreaterThan(100);
  });
});
