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

/** Escapes that stand for one fixed character (everything else after a backslash is a class or an anchor). */
const LITERAL_ESCAPE = /^[\\.^$|?*+()[\]{}\/\-:,'"#&@!%=<>~`;_ ]$/;

/**
 * Literal text that every match of a pattern must contain (lower-cased), one per top-level
 * alternative, or undefined when some alternative has none worth looking for. Read from the
 * pattern's own structure, conservatively: a quantified atom, a group or a class ends a run.
 */
export function requiredLiterals(source: string): string[] | undefined {
  const branches: string[][] = [[]];
  let run = '';
  let depth = 0;
  const close = () => {
    if (run) branches[branches.length - 1]!.push(run);
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    let atom: string | undefined;
    if (c === '\\') {
      const e = source[++i] ?? '';
      if (e === 't') atom = '\t';
      else if (LITERAL_ESCAPE.test(e)) atom = e;
    } else if (c === '[') {
      // A class: skip to its end (a `]` right after `[` or `[^` belongs to it).
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
    } else if (c === '|' && depth === 0) {
      close();
      branches.push([]);
      continue;
    } else if (!'^$.*+?{'.includes(c)) {
      atom = c;
    }
    const next = source[i + 1];
    const optional = next === '?' || next === '*' || (next === '{' && /^\{0,/.test(source.slice(i + 1)));
    const repeated = optional || next === '+' || next === '{';
    if (atom !== undefined && depth === 0 && !optional) run += atom.toLowerCase();
    if (atom === undefined || depth > 0 || repeated) close();
    if (next === '{') i = source.indexOf('}', i + 1);
  }
  close();
  const best = branches.map((b) => b.sort((a, b) => b.length - a.length)[0]);
  // Letters whose lower case is not one character (or not what RE2 folds) make a literal unsafe:
  // ASCII, Cyrillic, CJK and Hangul fold alike in both.
  return best.every((l) => l && l.length >= 3 && /^[\x20-\x7e\t\u0400-\u04ff\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]+$/.test(l)) ? (best as string[]) : undefined;
}

/**
 * Many kb patterns over the lines of a paste. The patterns' required literals, looked for in
 * the lower-cased text first (all of them in one pass), spare RE2 most patterns: few occur in any
 * one paste. Those that may, RE2 tests over the whole text and then walks line by line.
 * Case-insensitive; `^` and `$` are a line's ends. The text goes to RE2 once, as UTF-8.
 * (RE2's own Set was tried: with this many patterns its automaton outgrows its memory budget
 * and runs 4x slower.)
 */
export class PatternSet {
  /** Compiled when a paste first needs them: most patterns are never needed in one run of the CLI. */
  private readonly each: (RE2 | undefined)[];
  private readonly literals: (string[] | undefined)[];

  /** Every literal at once, longest first; plain escaped text, so V8 can run it safely. */
  private readonly anyLiteral: RegExp | undefined;
  /** For each literal, the others it starts with: the scan finds only the longest at a position. */
  private readonly prefixes: Map<string, string[]>;

  constructor(readonly sources: readonly string[]) {
    this.each = sources.map(() => undefined);
    this.literals = sources.map(requiredLiterals);
    const distinct = [...new Set(this.literals.flatMap((l) => l ?? []))].sort((a, b) => b.length - a.length);
    this.anyLiteral = distinct.length ? new RegExp(distinct.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g') : undefined;
    this.prefixes = new Map(distinct.map((l) => [l, distinct.filter((o) => o !== l && l.startsWith(o))]));
  }

  /** The literals present in a lower-cased text, found in one pass. */
  private present(lower: string): Set<string> {
    const found = new Set<string>();
    const re = this.anyLiteral;
    if (!re) return found;
    re.lastIndex = 0;
    for (let m = re.exec(lower); m; m = re.exec(lower)) {
      found.add(m[0]);
      for (const p of this.prefixes.get(m[0])!) found.add(p);
      // Every position where a literal starts is visited, overlaps included.
      re.lastIndex = m.index + 1;
    }
    return found;
  }

  private compiled(i: number): RE2 {
    return (this.each[i] ??= new RE2(this.sources[i]!, 'gimu'));
  }

  /** For each pattern found in the lines, its index (into `sources`) and the line of each match. */
  *scan(lines: readonly string[]): Generator<{ pattern: number; line: number }> {
    const joined = lines.join('\n');
    const present = this.present(joined.toLowerCase());
    const candidates = this.literals.flatMap((l, i) => (l && !l.some((x) => present.has(x)) ? [] : [i]));
    if (!candidates.length) return;
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
