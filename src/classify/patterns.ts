// kb patterns are written by people (and by whoever points COMFYOOM_KB at their own folder) and
// run over untrusted pastes, so they run on RE2: its automaton takes time linear in the line
// whatever the pattern, where a backtracking engine can take minutes on `(a|aa){1,30}b`. RE2
// refuses what it cannot run in linear time (backreferences, lookarounds), and that is the only
// check a pattern needs.
import RE2 from 're2';
import { setFlagsFromString } from 'node:v8';

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
 * Many kb patterns over the lines of a paste: a test of each over the whole text tells which
 * occur at all (most occur nowhere), then each of those few finds its lines. Case-insensitive;
 * `^` and `$` are a line's ends. The text goes to RE2 once, as UTF-8. (RE2's own Set was tried:
 * with this many patterns its automaton outgrows its memory budget and runs 4x slower.)
 */
export class PatternSet {
  private readonly each: RE2[];

  constructor(readonly sources: readonly string[]) {
    this.each = sources.map((p) => new RE2(p, 'gimu'));
  }

  /** For each pattern found in the lines, its index (into `sources`) and the line of each match. */
  *scan(lines: readonly string[]): Generator<{ pattern: number; line: number }> {
    const text = Buffer.from(lines.join('\n'), 'utf8');
    const found = this.each.flatMap((re, i) => {
      re.lastIndex = 0;
      return re.test(text) ? [i] : [];
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
      const re = this.each[pattern]!;
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
