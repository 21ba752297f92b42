// OCR gives a screenshot back one screen line at a time, but consoles, phones and chat apps cut
// long lines at the edge of the window, often mid-word (`torch.OutOfMemoryErr` / `or: CUDA ...`),
// which hides the very words the classifier looks for. Where each line sits on the screen says
// which breaks were made by the window: those are undone, every other line stays as it was.

/** One line as OCR read it, with its box in image pixels. */
export interface OcrLine {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * Lines that begin something new in a log, so a break before them is the log's own even when the
 * line above reaches the edge: stack frames, tracebacks, timestamps, bracketed tags, exception
 * classes, shell prompts, ComfyUI's error markers and report fields, its progress and model lines.
 * OCR's usual misreadings are allowed for (curly quotes, `Fi1e`).
 */
const NEW_LOG_LINE = new RegExp(
  '^(?:' +
    [
      String.raw`Fi[l1I]e\s*["“”'‘’]`,
      String.raw`Traceback\b`,
      String.raw`\d{4}[-/.]\d{1,2}[-/.]\d{1,2}`,
      String.raw`\d{1,2}:\d{2}:\d{2}`,
      String.raw`\[`,
      String.raw`(?:[a-z_]\w*\.)*[A-Z]\w*[a-z](?:Error|Exception|Warning)(?::|$)`,
      String.raw`(?:>>>|\$\s|PS [A-Z]:|[A-Z]:\\[^>\s]*>|\(\w[\w.-]*\)\s|\w[\w.-]*@[\w.-]+:)`,
      String.raw`(?:!!!\s*Exception|#|-\s+[*#]|\x60{3})`,
      String.raw`\d{1,3}%\s*\|`,
      String.raw`(?:got prompt|Prompt executed|Requested to load|Loading \d+ new models?|loaded (?:completely|partially)|model_type|Using \w+ attention|Total VRAM|Device:|Killed)\b`,
    ].join('|') +
    ')',
);

/** How close to the edge, in characters, a line cut anywhere ends (a wide glyph did not fit). */
const FLUSH = 2.5;

/** Line ends after which a cut most likely took a space: punctuation and short function words. */
const SPACE_BEFORE = /(?:[,;]|(?:^|\s)(?:a|an|and|at|by|for|from|has|in|is|of|on|or|the|to|was|with))$/i;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

interface Block {
  /** The right edge long lines are cut at. */
  edge: number;
  margin: number;
  charWidth: number;
  lineHeight: number;
  /** Every character as wide as the next: a console's font. */
  monospace: boolean;
}

/**
 * The screen's text as it was pasted: window-made breaks undone and indentation put back (OCR drops
 * leading spaces, and a traceback's code lines are told from its frames by them). A break is the
 * window's when the line above reaches the wrap edge (flush with it, or too close for the next
 * line's first word to have fitted), the next line starts at the left margin (a log's own
 * continuation lines are indented) right below it, and does not begin a log line of its own. A
 * text is taken as wrapped only when at least two lines end flush with the same edge and go on at
 * the margin: a log whose longest lines merely happen to be alike is returned line for line.
 */
/**
 * `breaks`: 'measured' undoes the breaks the screen shows were the window's; 'every' also every
 * break that could be one where the screen does not tell (a browser cuts at a space, so a wrapped
 * line ends as a log's own may): the engine reads both and asks when they disagree.
 */
export function rebuildText(lines: OcrLine[], breaks: 'measured' | 'every' = 'measured'): string {
  const read = lines.filter((l) => l.text.trim()).map((l) => ({ ...l, text: mendLine(l.text) }));
  const block = measure(read);
  if (!block) return read.map((l) => l.text.trim()).join('\n');
  const room = (i: number) => block.edge - read[i]!.right;
  const candidates = read.map((line, i) => i > 0 && wrappedBefore(read[i - 1]!, line, block));
  const flush = candidates.map((c, i) => c && room(i - 1) <= FLUSH * block.charWidth);
  const wrapped = flush.filter(Boolean).length >= 2;
  // Consoles and phones cut anywhere, so their cut lines end flush with the edge; browsers cut at
  // a space, leaving up to a word's room. Both cut runs of carets and table rules anywhere.
  const words = (l: OcrLine) => /[A-Za-z]{2}/.test(l.text);
  const votes = read.flatMap((line, i) => (candidates[i] && words(line) && words(read[i - 1]!) ? [flush[i]] : []));
  const anywhere = votes.filter(Boolean).length >= 0.7 * votes.length;
  const undone = wrapped ? (anywhere ? flush : candidates) : breaks === 'every' ? candidates : [];
  const out: string[] = [];
  for (const [i, line] of read.entries()) {
    const text = line.text.trim();
    const indent = Math.max(0, Math.round((line.left - block.margin) / block.charWidth));
    // A word the classifier needs, cut where no edge shows it (a chat's proportional font leaves
    // the line short): its pieces on both sides of the break make it whole again.
    if (i > 0 && !undone[i] && indent === 0 && splitWord(out.at(-1)!, text)) {
      out[out.length - 1] += text;
      continue;
    }
    if (!undone[i]) {
      out.push(' '.repeat(indent) + text);
      continue;
    }
    // Where the cut took a space the rest starts one space in, or the line ends short of the edge:
    // by a space's width in a monospace console, by up to a word in a browser. In a proportional
    // font cut anywhere a glyph's width is unknown; a cut after a comma or a short word most
    // likely took a space.
    const endsShort = (block.monospace || !anywhere) && room(i - 1) > 0.5 * block.charWidth;
    const spaced = indent > 0 || endsShort || (anywhere && SPACE_BEFORE.test(out.at(-1)!));
    out[out.length - 1] += (spaced ? ' ' : '') + text;
  }
  return out.join('\n');
}

/**
 * Words whose pieces, cut at a line's end, hide an error from the classifier: its exception classes
 * and allocators (`torch.OutOfMemoryErr` / `or`), and the words of the messages and node names it
 * reads (`Allocation on dev` / `ice`). Two pieces are one word only when neither is a word of its
 * own here and together they are one.
 */
const CLASS = /^[A-Z][A-Za-z]*[a-z](?:Error|Exception|Allocator|Warning)$/;
const WORD = /^(?:allocate|allocated|allocation|available|device|memory|reserved|insufficient|capacity|exceeded|tensor|KSampler|KSamplerAdvanced|SamplerCustom|SamplerCustomAdvanced|VAEDecode|VAEDecodeTiled|VAEEncode|UNETLoader|CheckpointLoaderSimple|CLIPTextEncode|UpscaleModelLoader|ImageUpscaleWithModel)$/i;
const whole = (w: string) => CLASS.test(w) || WORD.test(w);
const LAST_PIECE = /([A-Za-z]+)$/;
const FIRST_PIECE = /^([A-Za-z]+)/;

function splitWord(before: string, after: string): boolean {
  const head = LAST_PIECE.exec(before)?.[1];
  const tail = FIRST_PIECE.exec(after)?.[1];
  if (!head || !tail) return false;
  // A class name cut inside keeps its case: `OutOfMemoryErr` then `or` or `orError`, never a capital after the cut.
  if (/^[A-Z]/.test(tail) && /[A-Z]/.test(head.slice(1))) return false;
  return whole(head + tail) && !whole(head) && !whole(tail);
}

/**
 * Tesseract's misreadings of a traceback that hide its frames from the classifier: a frame's quotes
 * read curly or doubled (`File “C:\x.py"”, line 3`), and a space put after an underscore inside an
 * identifier (`factory_ kwargs`, never valid Python: `for _ in` has no letter before the `_`). And
 * of the words the classifier reads first: a soft `B` after a size's unit read as `8` or `S`
 * (`3232.70 M8`), the `m` and `e` of `memory` blurred into other letters (`out of samory`,
 * `OutOfMesory€rror`).
 */
const FRAME_QUOTES = /^(\s*Fi[l1I]e\s{0,2})["“”'‘’]{1,2}([^"“”'‘’\n]{1,400}?)["“”'‘’]{1,3}(\s{0,2},\s{0,2}line\b)/;
const SPACE_AFTER_UNDERSCORE = /([A-Za-z0-9])_ (?=[a-z])/g;
const SIZE_UNIT = /(\d ?[KMGT]i?)[8S]\b/g;
const OUT_OF_MEMORY = /\b(out of )(?!memory)[a-z]{3}ory\b/gi;
const MEMORY_ERROR = /\b(OutOf|Array)M[a-z]{2}ory[E€]rror\b/g;

function mendLine(text: string): string {
  return text
    .replace(FRAME_QUOTES, '$1"$2"$3')
    .replace(SPACE_AFTER_UNDERSCORE, '$1_')
    .replace(SIZE_UNIT, '$1B')
    .replace(OUT_OF_MEMORY, '$1memory')
    .replace(MEMORY_ERROR, '$1MemoryError');
}

function measure(read: OcrLine[]): Block | undefined {
  const sized = read.filter((l) => l.text.trim().length >= 4);
  if (sized.length < 2) return undefined;
  const widths = sized.map((l) => (l.right - l.left) / l.text.trim().length).sort((a, b) => a - b);
  const charWidth = median(widths);
  // Measured on OCR of rendered screenshots: a monospace font's lines spread by about 1% in width
  // per character, a proportional font's by 3-13% (interquartile range over the median).
  const monospace = (widths[Math.floor(widths.length * 0.75)]! - widths[Math.floor(widths.length * 0.25)]!) / charWidth < 0.02;
  // Nothing crosses a wrap edge: it is the rightmost line's end.
  const edge = Math.max(...sized.map((l) => l.right));
  // The text's left edge is where at least two lines start: a lone line further left is chrome
  // (a phone's clock, a sender's name, a window title).
  const lefts = sized.map((l) => l.left).sort((a, b) => a - b);
  const margin = lefts.find((x, i) => i + 1 < lefts.length && lefts[i + 1]! - x <= charWidth / 2) ?? lefts[0]!;
  return { edge, margin, charWidth, lineHeight: median(sized.map((l) => l.bottom - l.top)), monospace };
}

function wrappedBefore(prev: OcrLine, line: OcrLine, b: Block): boolean {
  const text = line.text.trim();
  // The next line's first word, with the space before it, measured on the screen.
  const firstWord = ((line.right - line.left) * text.split(/\s/, 1)[0]!.length) / text.length + b.charWidth;
  return (
    b.edge - prev.right < Math.max(FLUSH * b.charWidth, firstWord) &&
    line.left - b.margin < 1.5 * b.charWidth &&
    line.top - prev.bottom < 0.8 * b.lineHeight &&
    !NEW_LOG_LINE.test(text)
  );
}
