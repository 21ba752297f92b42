// kb patterns are written by people (and by whoever points COMFYOOM_KB at their own folder) and
// run over untrusted pastes, so they run on RE2: its automaton takes time linear in the line
// whatever the pattern, where a backtracking engine can take minutes on `(a|aa){1,30}b`. RE2
// refuses what it cannot run in linear time (backreferences, lookarounds), and that is the only
// check a pattern needs.
import RE2 from 're2';
import { setFlagsFromString } from 'node:v8';
import { LiteralIndex, requiredLiterals } from './literals.ts';

export { requiredLiterals };

// The project's own regular expressions stay on V8 (they are reviewed, bounded and far faster).
// Defence in depth for them: should one still backtrack badly, V8 switches that match to its
// linear-time engine. The threshold is high because that engine is ~1000x slower: ordinary
// patterns scanning a long text add up many small backtracks and must stay on the fast engine.
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
setFlagsFromString('--regexp-backtracks-before-fallback=10000000');

/** Why a kb pattern cannot be used, or undefined when it is fine. */
export function checkPattern(source: string): string | undefined {
  try {
    new RE2(source, 'iu');
    return undefined;
  } catch (e) {
    return `not a pattern that runs in linear time: ${(e as Error).message}`;
  }
}

/**
 * Many kb patterns over the lines of a paste. The patterns' required literals, looked for in
 * one pass over the lines first (literals.ts), spare RE2 most patterns: few occur in any one
 * paste. Those that may, RE2 tests over the whole text and then walks line by line.
 * Case-insensitive; `^` and `$` are a line's ends. The text goes to RE2 once, as UTF-8.
 * (RE2's own Set was tried: with this many patterns its automaton outgrows its memory budget
 * and runs 4x slower.)
 */
export class PatternSet {
  /** Compiled when a paste first needs them: most patterns are never needed in one run of the CLI. */
  private readonly each: (RE2 | undefined)[];
  /** Every distinct literal of the patterns. */
  private readonly index: LiteralIndex;
  /** For each literal of the index, the patterns it lets through. */
  private readonly admits: number[][];
  /** Patterns with no literal to look for: always run. */
  private readonly unfiltered: number[];

  constructor(readonly sources: readonly string[]) {
    this.each = sources.map(() => undefined);
    const literals = sources.map((s) => requiredLiterals(s));
    const distinct = [...new Set(literals.flatMap((l) => l ?? []))];
    this.index = new LiteralIndex(distinct);
    this.admits = distinct.map((d) => literals.flatMap((l, i) => (l?.includes(d) ? [i] : [])));
    this.unfiltered = literals.flatMap((l, i) => (l ? [] : [i]));
  }

  /** The patterns whose literals occur in the lines, in order. */
  private candidates(lines: readonly string[]): number[] {
    const found = new Set(this.unfiltered);
    this.index.scan(lines).forEach((at, id) => {
      if (at) for (const i of this.admits[id]!) found.add(i);
    });
    return [...found].sort((a, b) => a - b);
  }

  private compiled(i: number): RE2 {
    return (this.each[i] ??= new RE2(this.sources[i]!, 'gimu'));
  }

  /** For each pattern found in the lines, its index (into `sources`) and the line of each match. */
  *scan(lines: readonly string[]): Generator<{ pattern: number; line: number }> {
    const candidates = this.candidates(lines);
    if (!candidates.length) return;
    const joined = lines.join('\n');
    const text = Buffer.from(joined, 'utf8');
    const found = candidates.filter((i) => {
      const re = this.compiled(i);
      re.lastIndex = 0;
      return re.test(text);
    });
    if (!found.length) return;
    const starts: number[] = [];
    let at = 0;
    for (const l of lines) {
      starts.push(at);
      at += Buffer.byteLength(l, 'utf8') + 1;
    }
    const lineOf = (offset: number) => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    for (const pattern of found) {
      const re = this.compiled(pattern);
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const line = lineOf(m.index);
        yield { pattern, line };
        // One hit per line is all a signature needs; the next line is where to look again.
        if (line + 1 >= starts.length) break;
        re.lastIndex = starts[line + 1]!;
      }
    }
  }
}
