import { describe, expect, it } from 'vitest';
import { LazyIndex, LiteralIndex, requiredLiteralSets, requiredLiterals, union } from '../../src/classify/literals.ts';
import { createClassifier } from '../../src/classify/classify.ts';
import { declaredGates } from '../../src/classify/gates.ts';
import { normalize } from '../../src/classify/normalize.ts';
// Importing the classifier declares every reader's gates.
import '../../src/classify/classify.ts';
import { corpus } from '../helpers/corpus.ts';
import { seeded } from '../../src/learn/random.ts';
import { classify, kb } from '../helpers/kb.ts';

describe('many literals found in one pass', () => {
  it('finds each literal on every line that holds it, overlaps and case included', () => {
    const index = new LiteralIndex(['abc', 'bcd', 'out of memory', 'of memory', '显存不足', 'i̇stanbul']);
    const found = index.scan(['zzABCD', 'CUDA Out Of Memory', 'none here', '报错：显存不足', 'İSTANBUL', 'abc abc']);
    expect(found).toEqual([[0, 5], [0], [1], [1], [3], [4]]);
  });

  it('is built only once asked for more often than it costs', () => {
    const lazy = new LazyIndex(() => ['abc'], 2);
    expect([lazy.get(), lazy.get()]).toEqual([undefined, undefined]);
    expect(lazy.get()?.find('xABCx')).toEqual([0]);
  });

  it('finds what a lower-cased search finds, in any script and on any line', () => {
    // Letters from several scripts, a capital whose lower case is two units, the Kelvin sign (whose
    // lower case is ASCII k), an emoji (a surrogate pair), accents and CJK: the pass reads UTF-8
    // bytes and must see each as toLowerCase does.
    const alphabet = ['a', 'B', 'c', 'k', ' ', 'İ', 'i', '̇', 'Д', 'д', '显', '存', '😀', 'é', 'É', 'ß', '\t', 'Σ', 'ς', 'σ', '\u212a'];
    const random = seeded(7);
    // A character at a time: a whole-string toLowerCase also writes a word's last Σ as ς.
    const lower = (text: string) => [...text].map((c) => c.toLowerCase()).join('');
    const pick = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]!).join('');
    const literals = [...new Set(Array.from({ length: 40 }, () => lower(pick(1 + Math.floor(random() * 3)))))];
    const index = new LiteralIndex(literals);
    for (let round = 0; round < 200; round++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(Math.floor(random() * 12)));
      const expected = literals.map((l) => {
        const at = lines.flatMap((line, i) => (lower(line).includes(l) ? [i] : []));
        return at.length ? at : undefined;
      });
      expect(index.scan(lines)).toEqual(expected);
      const text = lines.join(' ');
      expect(index.find(text)).toEqual(literals.flatMap((l, id) => (lower(text).includes(l) ? [id] : [])));
    }
  });

  it('finds literals as well when there are too many states for 16-bit numbers', () => {
    const random = seeded(3);
    const word = () => Array.from({ length: 12 }, () => 'abcdefghijklmnopqrstuvwxyz中'[Math.floor(random() * 27)]).join('');
    const literals = [...new Set(Array.from({ length: 4000 }, word))];
    const index = new LiteralIndex(literals);
    const lines = [literals[0]!, `x ${literals[3999 % literals.length]!.toUpperCase()} y`, 'nothing', literals[1234]!.slice(1)];
    expect(index.scan(lines)).toEqual(literals.map((l) => {
      const at = lines.flatMap((line, i) => (line.toLowerCase().includes(l) ? [i] : []));
      return at.length ? at : undefined;
    }));
  });

  it('merges the lines of several literals ascending, each once, leaving the lists as they were', () => {
    const a = [1, 3, 5];
    const b = [0, 3, 6, 7];
    expect(union(a, b)).toEqual([0, 1, 3, 5, 6, 7]);
    expect(union([], b)).toEqual(b);
    expect([a, b]).toEqual([[1, 3, 5], [0, 3, 6, 7]]);
  });

  it('says nothing of a literal the lines lack', () => {
    expect(new LiteralIndex(['killed']).scan(['kill', 'illed', 'k i l l e d'])).toEqual([undefined]);
  });
});

describe('the literals a pattern needs, read through groups', () => {
  it.each([
    ['^\\s{0,2}(\\d\\.\\d{1,2}\\+(?:cu|rocm|xpu)[\\w.]{0,10})$', ['+cu', '+rocm', '+xpu']],
    // A group of plain literal branches goes on with the text around it.
    ['a(?:bc|d)e', ['abce', 'ade']],
    ['^[ \\t]{0,12}[A-Za-z_][\\w.]{0,120}(?:Error|Exception|Failed):', ['error:', 'exception:', 'failed:']],
    ['\\bmac ?(?:studio|mini|book)\\b', ['studio', 'mini', 'book']],
    ['(?:pytorch|torch)\\s{0,2}version', ['version']],
    ['xy(?=abc)|(?<!def)yz', ['xy', 'yz']],
  ])('%s needs one of %j', (pattern, literals) => {
    const found = requiredLiterals(pattern, 2);
    expect(found === undefined ? undefined : [...found].sort()).toEqual(literals.sort());
  });

  it('reads every literal a pattern without alternation at its top needs', () => {
    expect(requiredLiteralSets('cuda[ \\t]{0,2}out[ \\t]{0,2}of memory')).toEqual([['cuda'], ['out'], ['of memory']]);
    expect(requiredLiteralSets('a|bcd')).toBeUndefined();
  });

  it.each(['x(?=abc)', '(?:ab)?c', 'a(?:b+c|d)e', '\\x41\\u0042C'])('%s needs nothing of two characters it could tell', (pattern) => {
    expect(requiredLiterals(pattern, 2)).toBeUndefined();
  });
});

// Pastes as users send them, and in the shapes a reader must not be fooled by.
const lines = corpus.flatMap((s) => [s.text, s.text.toUpperCase(), s.text.replace(/\n/g, ' ')].flatMap((t) => normalize(t).lines));

describe('the literals each kb pattern needs all of', () => {
  it('are on every corpus line the pattern matches', () => {
    const misses: string[] = [];
    for (const p of kb.signatures.flatMap((s) => s.patterns)) {
      const sets = requiredLiteralSets(p);
      if (!sets) continue;
      const re = new RegExp(p, 'iu');
      for (const l of lines) if (re.test(l) && !sets.every((set) => set.some((x) => l.toLowerCase().includes(x)))) misses.push(`${p} :: ${l.slice(0, 80)}`);
    }
    expect(misses).toEqual([]);
  });
});

describe("the readers' gates", () => {
  it('hold a literal of every line their pattern matches (the shortcut never hides a match)', () => {
    const gates = declaredGates();
    expect(gates.filter((g) => g.literals).length).toBeGreaterThan(40);
    const misses: string[] = [];
    for (const { re, literals } of gates) {
      if (!literals) continue;
      const once = new RegExp(re.source, re.flags.replace('g', ''));
      for (const l of lines) if (once.test(l) && !literals.some((x) => l.toLowerCase().includes(x))) misses.push(`${re} :: ${l.slice(0, 80)}`);
    }
    expect(misses).toEqual([]);
  });

  it('each have literals, so that none runs on every line of every paste', () => {
    // A pattern edited into one with no fixed text (an alternative of digits or classes only)
    // loses its gate silently and costs a search of every line: spell such an alternative out.
    expect(declaredGates().filter((g) => !g.literals).map((g) => g.re.source)).toEqual([]);
  });

  it("and so do the kb's signature patterns", () => {
    // An optional group before an alternative ("进程(?:被)?(?:killed|杀掉)") hides the fixed text
    // from the reading of literals: such a pattern would be tried on every line.
    expect(kb.signatures.flatMap((s) => s.patterns.filter((p) => !requiredLiterals(p)).map((p) => `${s.id}: ${p}`))).toEqual([]);
  });
});

describe('with and without the one pass', () => {
  // A fresh classifier reads its first paste without any automaton (every line looked at);
  // the shared one has long built them. The answers must not differ in any detail.
  it('gives every corpus paste the same diagnosis', () => {
    const differ = corpus
      .filter((_, i) => i % 4 === 0)
      .filter((s) => JSON.stringify(createClassifier(kb)(s.text)) !== JSON.stringify(classify(s.text)))
      .map((s) => s.id);
    expect(differ).toEqual([]);
  });
});
