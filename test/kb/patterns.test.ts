import { describe, expect, it } from 'vitest';
import { checkPattern, PatternSet } from '../../src/classify/patterns.ts';

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
