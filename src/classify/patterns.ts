// kb patterns are written by people (and by whoever points COMFYOOM_KB at their own folder) and
// run over untrusted pastes, so they run on RE2: its automaton takes time linear in the line
// whatever the pattern, where a backtracking engine can take minutes on `(a|aa){1,30}b` (the kb
// loader refuses what RE2 cannot run, kb/pattern-check.ts).
import RE2 from 're2';
import { setFlagsFromString } from 'node:v8';
import { requiredLiteralSets, requiredLiterals, union } from './literals.ts';

export { requiredLiterals };

// The project's own regular expressions stay on V8 (they are reviewed, bounded and far faster).
// Defence in depth for them: should one still backtrack badly, V8 switches that match to its
// linear-time engine. The threshold is high because that engine is ~1000x slower: ordinary
// patterns scanning a long text add up many small backtracks and must stay on the fast engine.
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
setFlagsFromString('--regexp-backtracks-before-fallback=10000000');

/** The text a pattern stands for when it is nothing but literal characters (lower-cased), else undefined. */
export function literalText(source: string): string | undefined {
  let text = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const e = source[++i] ?? '';
      if (e === 't') text += '\t';
      else if (/^[\\.^$|?*+()[\]{}\/\-:,'"#&@!%=<>~`;_ ]$/.test(e)) text += e;
      else return undefined;
    } else if ('.^$|?*+()[]{}'.includes(c)) return undefined;
    else text += c;
  }
  return text.toLowerCase();
}

/**
 * Whether no match of a pattern can hold a line break, read conservatively from its source:
 * no `\s`, `\W`, `\D`, `\p` or other escape that may stand for one, no `(?s`, and no class that
 * may (a negated class must exclude `\n` itself; a positive one may not hold such an escape, a
 * POSIX class or a range across it).
 */
export function lineBound(source: string): boolean {
  const risky = /^[sWDnvpPxuCQ0-7]$/;
  if (source.includes('\n') || source.includes('(?s')) return false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      if (risky.test(source[++i] ?? '')) return false;
    } else if (c === '[') {
      let j = i + 1;
      const negated = source[j] === '^';
      if (negated) j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      const body = source.slice(i + (negated ? 2 : 1), j);
      // A range with an escape or a control character at an end may span `\n`.
      if (negated ? !/(?:^|[^\\])(?:\\\\)*\\n/.test(body) : /\\[sWDnvpPxuC0-7]|\[:|\\.-|-\\|[\x00-\x0a]-/.test(body)) return false;
      i = j;
    }
  }
  return true;
}

/**
 * Many kb patterns over the lines of a paste. The patterns' required literals, looked for in
 * one pass over the lines first (literals.ts), spare RE2 most patterns: few occur in any one
 * paste. Those that may, RE2 tests over the whole text and then walks line by line.
 * Case-insensitive; `^` and `$` are a line's ends. Text goes to RE2 as UTF-8.
 * (RE2's own Set was tried: with this many patterns its automaton outgrows its memory budget
 * and runs 4x slower.)
 */
export class PatternSet {
  /** Compiled when a paste first needs them: most patterns are never needed in one run of the CLI. */
  private readonly each: (RE2 | undefined)[];
  /** Every distinct literal of the patterns; those every line-bound pattern needs all of come after, once asked for. */
  private readonly literalList: string[];
  private readonly idOf: Map<string, number>;
  /** For each pattern, its literals (indexes into the index), or undefined when it has none. */
  private readonly literals: (number[] | undefined)[];
  /** For each literal, the patterns that hold it; and the patterns that hold none (which may match anywhere). */
  private readonly byLiteral: number[][];
  private readonly unconditional: number[];
  /** Scratch for `candidates`: a mark per pattern, all clear between calls. */
  private readonly marked: Uint8Array;
  /** For each pattern that is nothing but its one literal, true: where the literal is, it matches. */
  private readonly plain: boolean[];
  /** For each pattern, whether its matches stay within a line, so it can be tried line by line. */
  private readonly bound: boolean[];
  /** For such a pattern, every set of literals a matching line holds one of (indexes into the index): read when a pass over the lines will look for them. */
  private allOf?: (number[][] | undefined)[];

  constructor(readonly sources: readonly string[]) {
    this.each = sources.map(() => undefined);
    const literals = sources.map((s) => requiredLiterals(s));
    const distinct = [...new Set(literals.flatMap((l) => l ?? []))];
    this.literalList = distinct;
    const idOf = new Map(distinct.map((x, id) => [x, id]));
    this.idOf = idOf;
    this.literals = literals.map((l) => l?.map((x) => idOf.get(x)!));
    this.byLiteral = distinct.map(() => []);
    this.unconditional = [];
    this.literals.forEach((ids, pattern) => {
      if (!ids) this.unconditional.push(pattern);
      else for (const id of new Set(ids)) this.byLiteral[id]!.push(pattern);
    });
    this.marked = new Uint8Array(sources.length);
    this.plain = sources.map((s, i) => literals[i]?.length === 1 && literalText(s) === literals[i]![0]);
    this.bound = sources.map(lineBound);
  }

  /**
   * Every distinct literal of the patterns, for a caller's pass over the lines (literals.ts). Asking
   * adds the literals line-bound patterns need all of (read from them now, as only such a pass
   * makes them worth reading): ids already given keep their meaning.
   */
  get distinct(): readonly string[] {
    if (!this.allOf) {
      this.allOf = this.sources.map((s, i) =>
        this.bound[i]
          ? requiredLiteralSets(s)?.map((set) =>
              set.map((x) => {
                let id = this.idOf.get(x);
                if (id === undefined) this.idOf.set(x, (id = this.literalList.push(x) - 1));
                return id;
              }),
            )
          : undefined,
      );
    }
    return this.literalList;
  }

  /**
   * Where each of `distinct` is in the lines, without an automaton: one search per literal in
   * each lower-cased line. For a caller with no pass of its own (one paste, where building the
   * automaton would cost more than it saves).
   */
  private lookFor(lines: readonly string[]): (number[] | undefined)[] {
    const lower = lines.map((l) => l.toLowerCase());
    return this.literalList.map((literal) => {
      const at = lower.flatMap((l, i) => (l.includes(literal) ? [i] : []));
      return at.length ? at : undefined;
    });
  }

  /**
   * The patterns that may match, in order: those one of whose literals was found (a pattern none
   * of whose literals is in the lines cannot match), and those with none. Read from the literals
   * found, as few of the patterns' literals are in any one paste.
   */
  private candidates(found: readonly (number[] | undefined)[]): number[] {
    // Marked, then read in pattern order: no set or sort for the few dozen that usually qualify.
    const marked = this.marked;
    for (const pattern of this.unconditional) marked[pattern] = 1;
    // Only the distinct literals: ids past them are the all-of literals, which no pattern is gated on.
    for (let id = 0; id < this.byLiteral.length; id++) if (found[id]) for (const pattern of this.byLiteral[id]!) marked[pattern] = 1;
    const out: number[] = [];
    for (let pattern = 0; pattern < marked.length; pattern++) {
      if (!marked[pattern]) continue;
      out.push(pattern);
      marked[pattern] = 0;
    }
    return out;
  }

  /** A pattern tried line by line needs no `g` (and so no lastIndex to reset); one run over the whole text does. */
  private compiled(i: number): RE2 {
    return (this.each[i] ??= new RE2(this.sources[i]!, this.bound[i] && this.literals[i] ? 'imu' : 'gimu'));
  }

  /**
   * For each pattern found in the lines, its index (into `sources`) and each line where a match
   * starts, patterns in order and each one's lines ascending. A plain literal needs no more
   * than the one pass (`found`: the lines where each of `distinct` is, when the caller's own pass
   * found them); a pattern that stays within a line goes to RE2 only for the lines that
   * hold one of its literals; any other one over the whole text, once.
   */
  scan(lines: readonly string[], found: readonly (number[] | undefined)[] = this.lookFor(lines)): { pattern: number; line: number }[] {
    const hits: { pattern: number; line: number }[] = [];
    let text: Buffer | undefined;
    let starts: number[] | undefined;
    // A line several patterns try is encoded once.
    const bytes: Buffer[] = [];
    for (const pattern of this.candidates(found)) {
      const ids = this.literals[pattern];
      const at = ids && ids.reduce<readonly number[] | undefined>((lines, id) => (!found[id] ? lines : lines ? union(lines, found[id]) : found[id]), undefined);
      if (this.plain[pattern]) {
        for (const line of at!) hits.push({ pattern, line });
        continue;
      }
      const re = this.compiled(pattern);
      if (at && this.bound[pattern]) {
        const allOf = this.allOf?.[pattern];
        for (const line of at) {
          if (allOf && !allOf.every((set) => set.some((id) => found[id]?.includes(line)))) continue;
          // The line's own bytes: RE2 turns a string into UTF-8 at every call, more slowly, and the
          // few lines tested cost less to encode than the whole text with every line's offset.
          if (re.test((bytes[line] ??= Buffer.from(lines[line]!, 'utf8')))) hits.push({ pattern, line });
        }
        continue;
      }
      text ??= Buffer.from(lines.join('\n'), 'utf8');
      starts ??= lineStarts(lines);
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const line = lineOf(starts, m.index);
        hits.push({ pattern, line });
        // One hit per line is all a signature needs; the next line is where to look again.
        if (line + 1 >= starts.length) break;
        re.lastIndex = starts[line + 1]!;
      }
    }
    return hits;
  }
}


/** Where each line starts in the lines joined by `\n`, in UTF-8 bytes. */
function lineStarts(lines: readonly string[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += Buffer.byteLength(l, 'utf8') + 1;
  }
  return starts;
}

/** The line holding a byte offset. */
function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
