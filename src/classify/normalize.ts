// Turns whatever a user pasted (a chat message, a markdown report, an OCR'd screenshot, a 100k-line
// console dump) into bounded, clean lines that the fact extractors can read with simple patterns.
import { utf8 } from './literals.ts';

export const LIMITS = {
  /** Characters kept from a paste; beyond it the head and tail are kept (errors sit at the end). */
  maxChars: 400_000,
  maxLines: 6_000,
  /** Share of the kept lines taken from the head (startup banner: GPU, VRAM, versions). */
  headShare: 0.25,
  /** A longer line is cut: tracebacks never need more, and it bounds every per-line pattern. */
  maxLineLength: 1_000,
};

export interface Normalized {
  lines: string[];
  /** True when the input was cut to the limits above. */
  truncated: boolean;
  originalChars: number;
}

const ANSI = /\x1b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]|\x1b\][^\x07\x1b]{0,256}(?:\x07|\x1b\\)/g;
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff\u00ad]/g;
const NON_ASCII = /[^\x00-\x7f]/;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };
const ENTITY = /&(lt|gt|amp|quot|apos|nbsp|#39|#\d{1,6}|#x[0-9a-f]{1,6});/gi;

/** Log-line prefixes that tools put in front of ComfyUI's own text. */
const LINE_PREFIXES = [
  /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,6})?(?: - [\w.]{1,40} - [A-Z]{3,8} -| -)? ?/, // comfyui.log / desktop app
  /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\] ?/, // [2025-09-05 22:47:42.035]
  /^\[(?:ERROR|WARNING|WARN|INFO|DEBUG)\] ?/, // [ERROR] !!! Exception ...
  /^(?:ERROR|WARNING|INFO):root: ?/, // ERROR:root:Traceback
  /^\[(?:default)?rank\d{1,4}\]: ?/, // torchrun's per-process prefix: [rank0]: Traceback
];
/** The desktop app sometimes glues the next line's timestamp onto the end of a line. */
const GLUED_TIMESTAMP = /(\S)\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{1,6} - /g;

/**
 * Where ComfyUI and Python start a line of their own. A paste whose line breaks were lost (an
 * issue form, a chat client) holds several of them on one line; each begins a line again.
 */
const LINE_START = /\s(?=!!! ?Exception during processing|Requested to load |loaded (?:completely|partially)|got prompt\b|Prompt executed in |Traceback \(most recent call last\)|File "[^"\n]{1,300}", line \d|(?:torch\.(?:cuda\.)?)?OutOfMemoryError: |RuntimeError: )/g;

/** `docker compose` puts the service's name (and a time) before every line: "comfyui-1  | ...". */
const SERVICE_PREFIX = /^(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?Z?\s{1,2})?([\w.-]{1,80})\s{1,40}\| ?/;

/** Strips a service prefix that repeats on several lines (one such line alone proves nothing). */
function stripServicePrefixes(lines: string[]): string[] {
  const count = new Map<string, number>();
  for (const l of lines) {
    // The pattern needs a `|`; most lines have none, and the test is the cheaper one.
    const name = l.includes('|') ? SERVICE_PREFIX.exec(l)?.[1] : undefined;
    if (name) count.set(name, (count.get(name) ?? 0) + 1);
  }
  if (![...count.values()].some((n) => n >= 2)) return lines;
  return lines.map((l) => {
    const m = SERVICE_PREFIX.exec(l);
    return m && (count.get(m[1]!) ?? 0) >= 2 ? l.slice(m[0].length) : l;
  });
}

/**
 * One pattern that matches wherever any of `patterns` does: a line none of a sequence of
 * rewrites applies to is left as it is, so one test can stand for the whole sequence.
 */
export function anyOf(patterns: readonly RegExp[]): RegExp {
  const flags = new Set(patterns.map((p) => p.flags.replace('g', '')));
  if (flags.size > 1) throw new Error(`anyOf: patterns with different flags (${[...flags].join(', ')})`);
  return new RegExp(patterns.map((p) => `(?:${p.source})`).join('|'), [...flags][0] ?? '');
}

/**
 * OCR (and retyping) confuses 0/O and 1/l/I. Fold them back by context: a digit between letters
 * is a letter ("Out0fMemory"), a letter between digits is a digit ("l6.00 GiB", "2O48").
 * Version-like tokens (fp16, cu128, gfx1100) keep their digits because a digit follows.
 */
const OCR_FOLDS: [RegExp, string][] = [
  // An all-capitals "OOM" read as digits ("00M", "0OM") has no lower-case letter to tell by.
  [/\b[0O]{2}M(ED|S)?\b/g, 'OOM$1'],
  [/([A-Za-z])0(?=[A-Za-z])/g, '$1o'],
  [/\b0(?=[A-Za-wyz][A-Za-z]{2})/g, 'o'], // not 0x… hex
  [/([A-Za-z])[1|](?=[a-z])/g, '$1l'],
  [/(\d)[Oo](?=\d)/g, '$10'],
  [/(\d)[lI|](?=[\d.])/g, '$11'],
  [/(^|[\s(:])[lI](?=\d{1,5}(?:\.\d{1,3})?\s{0,2}(?:[KMGT]i?B|bytes)\b)/g, '$11'],
  [/©/g, '0'],
];
const ANY_OCR_FOLD = anyOf(OCR_FOLDS.map(([re]) => re));

export function foldOcrConfusions(line: string): string {
  if (!ANY_OCR_FOLD.test(line)) return line;
  let out = line;
  for (const [re, to] of OCR_FOLDS) out = out.replace(re, to);
  return out;
}

/**
 * The kinds of character the marks below are made of, per byte of UTF-8: 1 a letter, 2 a digit,
 * 3 the digit 0, 4 the digit 1, 5 `|`, 6 O or o, 7 l or I, 8 what decoding may turn into
 * anything (an escape, an entity's `&`, any byte beyond ASCII, © among them), 9 a line break,
 * 10 a space, 11 `-`.
 */
const KIND = new Uint8Array(256).fill(8);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  KIND[c] = ch === '0' ? 3 : ch === '1' ? 4 : ch === '|' ? 5 : 'Oo'.includes(ch) ? 6 : 'lI'.includes(ch) ? 7 : /[A-Za-z]/.test(ch) ? 1 : /\d/.test(ch) ? 2 : ch === '\x1b' || ch === '&' ? 8 : ch === '\n' || ch === '\r' ? 9 : ch === ' ' ? 10 : ch === '-' ? 11 : 0;
}
/** What a line's bytes say of it (bits): an OCR fold may change it; it needs decoding. */
export const MAY_FOLD = 1;
export const NEEDS_DECODING = 2;
/** It holds " - ", which ends a timestamp glued on mid-line. */
export const MAY_GLUE = 4;
/** It starts (after blanks) or ends with what a wrapper or a logger's prefix starts or ends with. */
export const MAY_WRAP = 8;
/** ASCII blanks other than line breaks: what \s{0,8} before a wrapper and trimEnd after one take. */
const BLANK = new Uint8Array(256);
for (const c of ' \t\v\f') BLANK[c.charCodeAt(0)] = 1;
/** First characters of the wrappers and prefixes (stripWrapping): a quote, a fence or code, bold, a timestamp, a tag, ERROR:root. */
const WRAP_START = new Uint8Array(256);
for (const c of '>`*0123456789[EWI') WRAP_START[c.charCodeAt(0)] = 1;
const [STAR, BACKQUOTE] = [42, 96];
/** For a kind after a kind (16 × before + after), the marks the pair gives: MAY_FOLD where it is one every fold needs some pair of. */
const PAIR = new Uint8Array(256);
{
  const letters = [1, 6, 7];
  const digits = [2, 3, 4];
  const mark = (before: number[], after: number[]) => before.forEach((b) => after.forEach((a) => (PAIR[b * 16 + a] = MAY_FOLD)));
  mark(letters, [3, 4, 5]); // a letter then 0, 1 or |: "Out0fMemory", "Fi1e"
  mark([3], letters); // 0 then a letter: "0ut"
  mark(digits, [5, 6, 7]); // a digit then O, o, l, I or |: "2O48", "1l.00"
  mark([5, 7], digits); // l, I or | then a digit: "l6.00 GiB"
  for (let k = 0; k < 16; k++) PAIR[k * 16 + 8] = MAY_FOLD | NEEDS_DECODING;
  PAIR[10 * 16 + 11] = MAY_GLUE; // " -", as " - " begins
}

/**
 * For each line of `text` (split as normalize splits it): whether it needs decoding (it holds
 * an escape, an entity's `&` or anything beyond ASCII; a plain ASCII line does not), whether it
 * may hold a glued timestamp (" -"), whether it may be wrapped, and whether an OCR fold could
 * change what it cleans to: it holds a pair of characters every fold needs one of, or what
 * decoding may turn into one. Stripping and splitting a line only take characters away, so they
 * make no new pair. One loop over the text's bytes: the folds' own pattern costs a search of
 * every line, the most of normalizing, and few lines hold such a pair.
 */
export function lineMarks(text: string): Uint8Array {
  const bytes = utf8(text);
  const end = bytes.length;
  const lines: number[] = [];
  let marks = 0;
  let prev = 0;
  let start = 0;
  for (let i = 0; i < end; i++) {
    const kind = KIND[bytes[i]!]!;
    if (kind === 9) {
      lines.push(marks | wrapMark(bytes, start, i));
      marks = 0;
      prev = 0;
      // \r\n is one break.
      if (bytes[i] === 13 && bytes[i + 1] === 10) i++;
      start = i + 1;
      continue;
    }
    marks |= PAIR[(prev << 4) | kind]!;
    prev = kind;
  }
  lines.push(marks | wrapMark(bytes, start, end));
  return Uint8Array.from(lines);
}

/** MAY_WRAP for the line in bytes [from, to) whose first or last character after blanks may begin or end a wrapper. */
function wrapMark(bytes: Uint8Array, from: number, to: number): number {
  let first = from;
  while (first < to && BLANK[bytes[first]!]) first++;
  if (first === to) return 0;
  let last = to - 1;
  while (BLANK[bytes[last]!]) last--;
  return WRAP_START[bytes[first]!] || bytes[last] === STAR || bytes[last] === BACKQUOTE ? MAY_WRAP : 0;
}

const QUOTE = /^\s{0,8}(?:>\s?){1,4}/; // markdown / e-mail quotes
// A fence line carries no text of its own beyond a language tag; a log glued to its fence
// ("```torch.cuda.OutOfMemoryError: ...```") is kept, the fences taken off.
const FENCE_ONLY = /^\s{0,8}```[\w+#.-]{0,20}\s{0,8}$/;
const FENCES = [/^\s{0,8}```/, /(?<=\S)```\s{0,8}$/];
const BOLD = [/^\s{0,8}\*\*(?=\S)/, /(?<=\S)\*\*\s{0,8}$/]; // **bold** wrappers
// `inline code` wrappers; one may open on a traceback's indented first frame ("`  File ...").
const CODE = [/^\s{0,8}`(?=\s{0,12}\S)/, /(?<=\S)`\s{0,8}$/];
// Every wrapper anchored at the start, in one pattern V8 tries at the first character only.
const WRAPPED_START = anyOf([QUOTE, FENCES[0]!, BOLD[0]!, CODE[0]!, ...LINE_PREFIXES]);

/** Whether a line ends in `*` or a backquote and at most 8 blanks, as the wrappers anchored at the end need. */
function mayEndWrapped(line: string): boolean {
  const text = line.trimEnd();
  const last = text[text.length - 1];
  return (last === '*' || last === '`') && line.length - text.length <= 8;
}

export function stripWrapping(line: string): string {
  if (!WRAPPED_START.test(line) && !mayEndWrapped(line)) return line;
  let s = line.replace(QUOTE, '');
  if (FENCE_ONLY.test(s)) return '';
  for (const p of [...FENCES, ...BOLD, ...CODE, ...LINE_PREFIXES]) s = s.replace(p, '');
  return s;
}

/** Keeps the head and the tail of an over-long list, marking the gap. */
function keepHeadAndTail<T>(items: T[], max: number, gap: T): T[] {
  if (items.length <= max) return items;
  const head = Math.floor(max * LIMITS.headShare);
  return [...items.slice(0, head), gap, ...items.slice(items.length - (max - head - 1))];
}

/** A line that holds several log lines (its breaks were lost) as separate lines again. */
function unglue(line: string): string[] {
  // A flattened paste is a few KB; megabytes on one line are not a log to take apart.
  if (line.length < 160 || line.length > 20 * LIMITS.maxLineLength) return [line];
  return (line.match(LINE_START)?.length ?? 0) >= 2 ? line.split(LINE_START) : [line];
}

/** Entities, escapes, invisible and compatibility characters: what needs more than a plain ASCII line does. */
function decodeLine(line: string): string {
  let text = line;
  if (text.includes('\x1b')) text = text.replace(ANSI, '');
  if (text.includes('&')) {
    text = text.replace(ENTITY, (m, name: string) => {
      const key = name.toLowerCase();
      if (key in ENTITIES) return ENTITIES[key]!;
      const code = key.startsWith('#x') ? parseInt(key.slice(2), 16) : parseInt(key.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    });
  }
  // Most log lines are plain ASCII: no zero-width marks, no full-width forms, no NBSP to fold.
  if (NON_ASCII.test(text)) text = text.replace(ZERO_WIDTH, '').normalize('NFKC').replace(/\u00a0/g, ' ');
  return text;
}

/** The clean lines one raw line makes, added to `out`; `marks`: what its bytes say of it (lineMarks). */
function cleanLine(raw: string, marks: number, out: string[]): void {
  const mayFold = (marks & MAY_FOLD) !== 0;
  const parts = unglue(raw);
  for (const line of parts) {
    const cut = line.length > LIMITS.maxLineLength ? line.slice(0, LIMITS.maxLineLength) : line;
    const decoded = marks & NEEDS_DECODING ? decodeLine(cut) : cut;
    // A glued timestamp ends in " - ": a line without one has none to take apart.
    const text = marks & (MAY_GLUE | NEEDS_DECODING) && decoded.includes(' - ') ? decoded.replace(GLUED_TIMESTAMP, '$1\n') : decoded;
    const pieces = text.includes('\n') ? text.split('\n') : [text];
    // A raw line kept whole starts and ends as its bytes said; a piece of one may start anywhere.
    const unwrapped = !(marks & (MAY_WRAP | NEEDS_DECODING)) && parts.length === 1 && pieces.length === 1 && raw.length <= LIMITS.maxLineLength;
    for (const l of pieces) {
      const stripped = unwrapped ? l : stripWrapping(l);
      out.push((mayFold ? foldOcrConfusions(stripped) : stripped).trimEnd());
    }
  }
}

// Everything runs line by line on lines already cut to length, so no pattern ever sees more than
// LIMITS.maxLineLength characters at once: the cost stays linear in the size of the paste.
export function normalize(input: string): Normalized {
  const originalChars = input.length;
  let text = input;
  let truncated = false;
  if (text.length > LIMITS.maxChars) {
    const head = Math.floor(LIMITS.maxChars * LIMITS.headShare);
    text = `${text.slice(0, head)}\n…\n${text.slice(text.length - (LIMITS.maxChars - head))}`;
    truncated = true;
  }
  // A string split costs a fraction of a pattern's, and most pastes hold no `\r`.
  let lines = text.includes('\r') ? text.split(/\r\n?|\n/) : text.split('\n');
  let marks = lineMarks(text);
  if (lines.length > LIMITS.maxLines) {
    lines = keepHeadAndTail(lines, LIMITS.maxLines, '…');
    marks = Uint8Array.from(keepHeadAndTail([...marks], LIMITS.maxLines, MAY_FOLD | NEEDS_DECODING));
    truncated = true;
  }
  const clean: string[] = [];
  for (let i = 0; i < lines.length; i++) cleanLine(lines[i]!, marks[i]!, clean);
  // The prefix needs a `|`, which most pastes hold nowhere (nor anything decoding could make one of).
  const mayHaveBar = text.includes('|') || marks.some((m) => (m & NEEDS_DECODING) !== 0);
  return { lines: mayHaveBar ? stripServicePrefixes(clean) : clean, truncated, originalChars };
}
