// The literal text a pattern's matches must hold, read from the pattern, and many such literals
// found in the lines of a paste in one pass (Aho-Corasick): a fixed cost per character, however
// many literals there are, where an alternation of them tries each one at every position.
// Case-insensitively: the text is read as `toLowerCase` would make it, a character at a time,
// without building a lower-cased copy.

/** Escapes that stand for one fixed character (everything else after a backslash is a class or an anchor). */
const LITERAL_ESCAPE = /^[\\.^$|?*+()[\]{}\/\-:,'"#&@!%=<>~`;_ ]$/;
// Letters whose lower case is not one character (or not what RE2 folds) make a literal unsafe:
// ASCII, Cyrillic, CJK and Hangul fold alike in both.
const FOLDS_ALIKE = /^[\x20-\x7e\t\u0400-\u04ff\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]+$/;

/** How many characters after `\\x`, `\\u`, `\\c`, `\\p`, `\\k` (at `at`) belong to the escape. */
function escapeArgumentLength(source: string, at: number): number {
  const e = source[at]!;
  if (!'xucpPk'.includes(e)) return 0;
  const rest = source.slice(at + 1, at + 64);
  if (e === 'x') return /^[0-9a-f]{2}/i.test(rest) ? 2 : 0;
  if (e === 'u') return /^\{[0-9a-f]{1,6}\}/i.exec(rest)?.[0].length ?? (/^[0-9a-f]{4}/i.test(rest) ? 4 : 0);
  if (e === 'c') return /^[a-z]/i.test(rest) ? 1 : 0;
  if (e === 'p' || e === 'P') return /^\{[^}]{1,60}\}/.exec(rest)?.[0].length ?? 0;
  if (e === 'k') return /^<[^>]{1,60}>/.exec(rest)?.[0].length ?? 0;
  return 0;
}

const COUNTED = /\{(\d+)(?:,\d*)?\}/y;

/** A quantifier at `at`: its minimum and how many characters it takes (a lazy `?` included). */
function quantifier(source: string, at: number): { min: number; length: number } | undefined {
  const c = source[at];
  COUNTED.lastIndex = at;
  const counted = c === '{' ? COUNTED.exec(source) : null;
  const q = c === '?' || c === '*' ? { min: 0, length: 1 } : c === '+' ? { min: 1, length: 1 } : counted ? { min: Number(counted[1]), length: counted[0].length } : undefined;
  if (q && source[at + q.length] === '?') q.length++;
  return q;
}

interface Reader {
  source: string;
  at: number;
  minLength: number;
}

/** Alternatives, one of which every match holds, or undefined when some branch has none worth looking for. */
function alternation(r: Reader): string[] | undefined {
  const branches = [sequence(r)];
  while (r.source[r.at] === '|') {
    r.at++;
    branches.push(sequence(r));
  }
  return branches.every((b) => b !== undefined) ? [...new Set(branches.flat() as string[])] : undefined;
}

/** The best thing a sequence of atoms must hold: of the options it has, the one whose shortest literal is longest. */
function sequence(r: Reader): string[] | undefined {
  const options = sequenceOptions(r);
  const shortest = (o: string[]) => Math.min(...o.map((l) => l.length));
  return options?.reduce<string[] | undefined>((best, o) => (!best || shortest(o) > shortest(best) ? o : best), undefined);
}

/** One literal character at `at` (itself, or an escape that stands for one), and where the next atom starts; undefined for anything else. */
function literalAtom(source: string, at: number): { char: string; next: number } | undefined {
  const c = source[at];
  if (c === undefined || '[().^$|?*+{}'.includes(c)) return undefined;
  if (c !== '\\') return { char: c, next: at + 1 };
  const e = source[at + 1] ?? '';
  if (e === 't') return { char: '\t', next: at + 2 };
  return LITERAL_ESCAPE.test(e) ? { char: e, next: at + 2 } : undefined;
}

/**
 * A group at `at` (its `(`) whose every branch is plain literal text, unquantified, as the
 * branches (lower-cased) and where the group ends; undefined for any other group.
 */
function literalGroup(source: string, at: number): { branches: string[]; next: number } | undefined {
  let i = at + 1;
  if (source.startsWith('?:', i)) i += 2;
  else if (source[i] === '?') return undefined; // a lookaround or a named group: left to the general reading
  const branches = [''];
  while (source[i] !== ')') {
    if (source[i] === '|') {
      branches.push('');
      i++;
      continue;
    }
    const atom = literalAtom(source, i);
    if (!atom || quantifier(source, atom.next)) return undefined;
    branches[branches.length - 1] += atom.char.toLowerCase();
    i = atom.next;
  }
  return quantifier(source, i + 1) ? undefined : { branches, next: i + 1 };
}

/** How many texts a run of literal text may stand for (a literal group multiplies them). */
const MAX_RUNS = 16;

/**
 * Everything a sequence of atoms must hold, each a set of alternatives: its runs of literal
 * characters, and groups of alternatives. A group of plain literal branches continues the run
 * around it (`(?:Error|Exception):` holds "error:" or "exception:"). Conservatively: a class,
 * an escape that is not one fixed character, a quantified atom and any other group end a run;
 * lookarounds hold nothing.
 */
function sequenceOptions(r: Reader): string[][] | undefined {
  const { source } = r;
  const options: string[][] = [];
  // The run so far: the texts it may be (one, unless a literal group branched it).
  let runs = [''];
  const close = () => {
    if (runs.some((x) => x)) options.push([...new Set(runs)]);
    runs = [''];
  };
  while (r.at < source.length && source[r.at] !== '|' && source[r.at] !== ')') {
    const c = source[r.at]!;
    let atom: string | undefined;
    let group: string[] | undefined;
    const literal = c === '(' ? literalGroup(source, r.at) : undefined;
    if (literal && runs.length * literal.branches.length <= MAX_RUNS) {
      runs = runs.flatMap((x) => literal.branches.map((b) => x + b));
      r.at = literal.next;
      continue;
    }
    if (c === '\\') {
      const e = source[r.at + 1] ?? '';
      if (e === 't') atom = '\t';
      else if (LITERAL_ESCAPE.test(e)) atom = e;
      r.at += 2 + escapeArgumentLength(source, r.at + 1);
    } else if (c === '[') {
      // A class: skip to its end (a `]` right after `[` or `[^` belongs to it).
      let j = r.at + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      r.at = j + 1;
    } else if (c === '(') {
      r.at++;
      const head = source.slice(r.at, r.at + 3);
      const lookaround = /^\?(?:[=!]|<[=!])/.test(head);
      if (head.startsWith('?:')) r.at += 2;
      else if (lookaround) r.at += head[1] === '<' ? 3 : 2;
      else if (head.startsWith('?<')) r.at = source.indexOf('>', r.at) + 1;
      const inner = alternation(r);
      if (source[r.at] !== ')') return undefined;
      r.at++;
      group = lookaround ? undefined : inner;
    } else if (c === '.' || c === '^' || c === '$') {
      r.at++;
    } else {
      atom = c;
      r.at++;
    }
    const q = quantifier(source, r.at);
    if (q) r.at += q.length;
    const required = (q?.min ?? 1) >= 1;
    if (atom !== undefined && required) {
      const lower = atom.toLowerCase();
      runs = runs.map((x) => x + lower);
    }
    if (atom === undefined || q) close();
    if (group && required) options.push(group);
  }
  close();
  return options.filter((o) => o.every((l) => l.length >= r.minLength && FOLDS_ALIKE.test(l)));
}

/**
 * Literal text that every match of a pattern must contain (lower-cased), one of a few
 * alternatives, or undefined when some alternative has none of `minLength` characters or more.
 * Read from the pattern's own structure (JavaScript and RE2 syntax alike), conservatively.
 */
export function requiredLiterals(source: string, minLength = 3): string[] | undefined {
  const r: Reader = { source, at: 0, minLength };
  const found = alternation(r);
  return r.at === source.length ? found : undefined;
}

/**
 * For a pattern with no alternation at its top: every set of literals its matches hold one of
 * (a line must hold one of each), or undefined.
 */
export function requiredLiteralSets(source: string, minLength = 3): string[][] | undefined {
  const r: Reader = { source, at: 0, minLength };
  const sets = sequenceOptions(r);
  return r.at === source.length && sets?.length ? sets : undefined;
}

const ASCII = 128;

/** Per UTF-16 code unit, what toLowerCase makes of it, learnt on first sight: 0 not yet known, -1 more than one unit, else the unit + 1. */
const lowerUnits = new Int32Array(65536);
function lowerUnit(code: number): number {
  let known = lowerUnits[code]!;
  if (known === 0) {
    const lower = String.fromCharCode(code).toLowerCase();
    known = lowerUnits[code] = lower.length === 1 ? lower.charCodeAt(0) + 1 : -1;
  }
  return known;
}

/** The table's numbers: 16 bits while the states allow (the table then takes half the cache). */
type Table = Uint16Array | Int32Array;

export class LiteralIndex {
  /**
   * State × column -> the next state, for ASCII: the automaton with its failure links folded in.
   * A state is kept as its number, doubled, plus 1 when literals end there (its own or, through
   * its failure link, shorter ones), so the walk reads one number per character.
   */
  private readonly next: Table;
  /**
   * log2 of the table's width: a column per ASCII character some literal holds, and column 0 for
   * every other one (which leads back to the start from anywhere), rounded up to a power of two
   * so that a row is found by a shift. Only ASCII has columns: the walk spends its time waiting
   * on memory once the table outgrows the cache, and the CJK characters of the kb's phrases
   * doubled every row. The few characters beyond ASCII a paste holds take the failure links
   * instead (`wideChild`, `fail`).
   */
  private readonly shift: number;
  /** ASCII capitals share their lower case's column. */
  private readonly asciiColumn: Uint8Array;
  /** state × 0x10000 + a UTF-16 unit beyond ASCII -> the trie's child there. */
  private readonly wideChild: Map<number, number>;
  private readonly fail: Int32Array;
  /** Per state, whether literals end there (1) or not (0). */
  private readonly ending: Uint8Array;
  /** Per state, the literals that end there (its own and, through failure links, shorter ones): outputs[outStart[s] .. outStart[s + 1]). */
  private readonly outStart: Int32Array;
  private readonly outputs: Int32Array;
  /** `find`'s scratch: a slot per literal, all empty between calls. */
  private seen?: (number[] | undefined)[];

  /** `literals` lower-cased, as `String.prototype.toLowerCase` makes them. */
  constructor(readonly literals: readonly string[]) {
    const ascii = [...new Set(literals.join(''))].map((c) => c.charCodeAt(0)).filter((code) => code < ASCII);
    this.asciiColumn = new Uint8Array(ASCII);
    ascii.forEach((code, k) => (this.asciiColumn[code] = k + 1));
    for (let c = 65; c <= 90; c++) this.asciiColumn[c] = this.asciiColumn[c + 32]!;
    const shift = (this.shift = Math.ceil(Math.log2(ascii.length + 1)));
    const columns = 1 << shift;

    // The trie, as sparse children first: ASCII by column, the rest by state and unit.
    const children: Map<number, number>[] = [new Map()];
    const wide: number[][] = [[]];
    const wideChild = (this.wideChild = new Map());
    const ends: number[][] = [[]];
    literals.forEach((literal, id) => {
      let s = 0;
      for (let i = 0; i < literal.length; i++) {
        const unit = literal.charCodeAt(i);
        const key = unit < ASCII ? this.asciiColumn[unit]! : s * 0x10000 + unit;
        let t = unit < ASCII ? children[s]!.get(key) : wideChild.get(key);
        if (t === undefined) {
          t = children.length;
          children.push(new Map());
          wide.push([]);
          ends.push([]);
          if (unit < ASCII) children[s]!.set(key, t);
          else {
            wideChild.set(key, t);
            wide[s]!.push(unit);
          }
        }
        s = t;
      }
      ends[s]!.push(id);
    });

    // Breadth first: each state's failure link, and so whether literals end there, is ready
    // before its children need it.
    const states = children.length;
    const ending = (this.ending = new Uint8Array(states));
    ending[0] = ends[0]!.length ? 1 : 0;
    const next = (this.next = states * 2 < 0x10000 ? new Uint16Array(states * columns) : new Int32Array(states * columns));
    next.fill(ending[0]);
    const fail = (this.fail = new Int32Array(states));
    const out: number[][] = ends.map((e) => [...e]);
    const queue: number[] = [];
    const reached = (t: number) => {
      ending[t] = ends[t]!.length || ending[fail[t]!] ? 1 : 0;
      queue.push(t);
    };
    for (const [c, t] of children[0]!) {
      reached(t);
      next[c] = t * 2 + ending[t]!;
    }
    for (const unit of wide[0]!) reached(wideChild.get(unit)!);
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      const f = fail[s]!;
      out[s]!.push(...out[f]!);
      // Where the failure state goes, except where s has a child of its own.
      next.copyWithin(s * columns, f * columns, f * columns + columns);
      for (const [c, t] of children[s]!) {
        fail[t] = next[f * columns + c]! >> 1;
        reached(t);
        next[s * columns + c] = t * 2 + ending[t]!;
      }
      for (const unit of wide[s]!) {
        const t = wideChild.get(s * 0x10000 + unit)!;
        fail[t] = this.wideStep(f, unit);
        reached(t);
      }
    }
    this.outStart = new Int32Array(states + 1);
    const flat: number[] = [];
    for (let s = 0; s < states; s++) {
      this.outStart[s] = flat.length;
      flat.push(...new Set(out[s]));
    }
    this.outStart[states] = flat.length;
    this.outputs = Int32Array.from(flat);
  }

  /** The state after a unit beyond ASCII from state `s` (by number): its child there, or its failure state's. */
  private wideStep(s: number, unit: number): number {
    for (;;) {
      const t = this.wideChild.get(s * 0x10000 + unit);
      if (t !== undefined) return t;
      if (s === 0) return 0;
      s = this.fail[s]!;
    }
  }

  /** For each literal (by index), the lines it occurs on, ascending; undefined where it occurs nowhere. */
  scan(lines: readonly string[]): (number[] | undefined)[] {
    const found: (number[] | undefined)[] = new Array(this.literals.length);
    this.walk(lines.join('\n'), found, true);
    return found;
  }

  /** The literals (by index) that occur in one text, each once, ascending. */
  find(text: string): number[] {
    // The few found are collected as they are first met and cleared afterwards: no array as
    // long as the literals made, and read through, at every call.
    const found = (this.seen ??= new Array(this.literals.length));
    const ids: number[] = [];
    this.walk(text, found, false, ids);
    for (const id of ids) found[id] = undefined;
    return ids.length < 2 ? ids : ids.sort((a, b) => a - b);
  }

  /**
   * Records in `found` each literal that ends somewhere in `text`, with the line it is on when
   * `byLine` (lines split at `\n`, each read from the automaton's start), else on line 0.
   * The walk reads the text's UTF-8 bytes: a loop over one typed array stays fast, where
   * `charCodeAt` slows down once it has met the many kinds of string a paste is cut into.
   * `firstMet`, when given, gets each literal's index the first time it is found.
   */
  private walk(text: string, found: (number[] | undefined)[], byLine: boolean, firstMet?: number[]): void {
    const { next, asciiColumn, shift } = this;
    const bytes = utf8(text);
    let s = 0;
    let line = 0;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b < ASCII) {
        if (b === 10 && byLine) {
          line++;
          s = 0;
          continue;
        }
        s = next[((s >> 1) << shift) + asciiColumn[b]!]!;
        if (s & 1) this.report(s >> 1, found, line, firstMet);
        continue;
      }
      // A character beyond ASCII, decoded, then taken a UTF-16 unit at a time as a string holds it.
      let code: number;
      if (b < 0xe0) code = ((b & 0x1f) << 6) | (bytes[++i]! & 0x3f);
      else if (b < 0xf0) code = ((b & 0x0f) << 12) | ((bytes[++i]! & 0x3f) << 6) | (bytes[++i]! & 0x3f);
      else {
        const point = ((b & 0x07) << 18) | ((bytes[++i]! & 0x3f) << 12) | ((bytes[++i]! & 0x3f) << 6) | (bytes[++i]! & 0x3f);
        s = this.unit(s, 0xd800 + ((point - 0x10000) >> 10), found, line, firstMet);
        code = 0xdc00 + ((point - 0x10000) & 0x3ff);
      }
      s = this.unit(s, code, found, line, firstMet);
    }
  }

  /** The state after a UTF-16 unit beyond ASCII, read as toLowerCase makes it (which may be more than one unit: "İ" -> "i̇"). */
  private unit(s: number, code: number, found: (number[] | undefined)[], line: number, firstMet?: number[]): number {
    const lower = lowerUnit(code);
    if (lower > 0) return this.step(s, lower - 1, found, line, firstMet);
    const units = String.fromCharCode(code).toLowerCase();
    for (let j = 0; j < units.length; j++) s = this.step(s, units.charCodeAt(j), found, line, firstMet);
    return s;
  }

  /** The state after a unit already lower-cased (the Kelvin sign lower-cases to ASCII k). */
  private step(s: number, unit: number, found: (number[] | undefined)[], line: number, firstMet?: number[]): number {
    if (unit < ASCII) s = this.next[((s >> 1) << this.shift) + this.asciiColumn[unit]!]!;
    else {
      const t = this.wideStep(s >> 1, unit);
      s = t * 2 + this.ending[t]!;
    }
    if (s & 1) this.report(s >> 1, found, line, firstMet);
    return s;
  }

  /** Records the literals that end in state `state` as found on `line`. */
  private report(state: number, found: (number[] | undefined)[], line: number, firstMet?: number[]): void {
    for (let k = this.outStart[state]!; k < this.outStart[state + 1]!; k++) {
      const id = this.outputs[k]!;
      const at = found[id];
      if (!at) {
        found[id] = [line];
        firstMet?.push(id);
      } else if (at[at.length - 1] !== line) at.push(line);
    }
  }
}

/** A scratch buffer for UTF-8, kept between texts unless a text needed more than a megabyte. */
let scratch = new Uint8Array(1 << 16);
const encoder = new TextEncoder();
/** `text` as UTF-8, in a buffer the next call reuses: for a loop that reads the bytes at once. */
export function utf8(text: string): Uint8Array {
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  const room = text.length * 3;
  if (room > scratch.length) {
    const buffer = new Uint8Array(room);
    if (room <= 1 << 20) scratch = buffer;
    return buffer.subarray(0, encoder.encodeInto(text, buffer).written);
  }
  return scratch.subarray(0, encoder.encodeInto(text, scratch).written);
}

/** The numbers of two ascending lists, ascending and each once (the lists themselves are left as they are). */
export function union(a: readonly number[], b: readonly number[]): readonly number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (out.length === 0 || out[out.length - 1] !== x) out.push(x);
  }
  return out;
}

/**
 * A LiteralIndex built only once it has been asked for more than `after` times. Building one
 * takes tens of milliseconds (more when the process is young), more than a few pastes gain from
 * it: a one-off diagnosis never pays for it, a batch or the bot soon does. Until then callers get
 * undefined and look at everything, which gives the same answers (an index only ever narrows).
 */
export class LazyIndex {
  private asked = 0;
  private built?: LiteralIndex;

  constructor(
    private readonly literals: () => readonly string[],
    private readonly after: number,
  ) {}

  get(): LiteralIndex | undefined {
    if (!this.built && ++this.asked > this.after) this.built = new LiteralIndex(this.literals());
    return this.built;
  }
}
