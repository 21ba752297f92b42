// Which node and which stage of the workflow failed. Five readings, most reliable first:
//   1. the failing node's class name, as ComfyUI reports it;
//   2. a node the user names in their own words around the paste;
//   3. the innermost stack frames of the traceback that ends in the error (the function and the
//      file inside a package count; the custom-node folder's name only when nothing else does);
//   4. words around the error that say what failed ("model failed to load", "(Encoding)");
//   5. the run's timeline: the last thing the log started before the error (a model requested,
//      a loader's line, a sampling progress bar).
// The stage vocabulary and name lists live in kb/stages.yaml.
import type { StageHints } from '../../kb/schema.ts';
import { gate, type GatedLines } from '../gates.ts';
import { LazyIndex, union } from '../literals.ts';
import type { Evidence, Stage } from './types.ts';

interface NodeGlob {
  test: (lowerName: string) => boolean;
  /** Literal characters in the glob: the more a glob spells out, the more it says. */
  literal: number;
}

export interface CompiledStages {
  /** Node and model name globs per stage, looked up through the longest piece between their stars. */
  nodes: HintLists;
  models: HintLists;
  globs: Map<string, NodeGlob>;
  /** Lower-cased names that are never a node, whatever glob they fit. */
  notNodes: ReadonlySet<string>;
  frames: HintLists;
  phrases: HintLists;
  events: HintLists;
}

/** OCR reads `_` as a space: frames and hints are compared with both folded to spaces. */
const fold = (s: string) => {
  const lower = s.toLowerCase();
  // Most text holds no underscore, and replacing none still copies it.
  return lower.includes('_') ? lower.replaceAll('_', ' ') : lower;
};

/**
 * One kind of kb hint, a list per stage, folded. A hint is in a text only where its longest run
 * without spaces is (neither holds a `_`, so folding changes nothing there): one pass over the
 * text for all those runs (literals.ts) tells which few hints are worth a closer look.
 */
class HintLists {
  /** The runs looked for, in the order a caller's own pass over the lines reports them. */
  readonly runs: readonly string[];
  private readonly index: LazyIndex;
  private readonly stages: Stage[];
  /** Per run (by index), the hints holding it and the index of each one's stage. */
  private readonly byRun: { stage: number; hint: string }[][] = [];
  /** Hints with no run to look for: always looked at. */
  private readonly always: { stage: number; hint: string }[] = [];
  /** Every run, for a text looked at before the index is built. */
  private readonly allRuns: readonly number[];

  constructor(stages: { stage: Stage; hints: string[] }[], runOf = (hint: string) => hint) {
    const runs: string[] = [];
    this.stages = stages.map((s) => s.stage);
    stages.forEach(({ hints }, stage) => {
      for (const hint of hints) {
        const run = runOf(hint)
          .split(' ')
          .reduce((a, b) => (b.length > a.length ? b : a), '');
        if (!run) {
          this.always.push({ stage, hint });
          continue;
        }
        if (!runs.includes(run)) runs.push(run);
        (this.byRun[runs.indexOf(run)] ??= []).push({ stage, hint });
      }
    });
    this.runs = runs;
    this.allRuns = runs.map((_, i) => i);
    this.index = new LazyIndex(() => runs, 64);
  }

  /**
   * Calls `visit` with each hint that may be in `text` (its run is) and its stage's place in kb
   * order. `known`: the runs in `text`, when the caller's pass over the lines found them (the text
   * is a whole line), so the text need not be read again.
   */
  private each(text: string, visit: (hint: string, stage: number) => void, known?: readonly number[]): void {
    for (const m of this.always) visit(m.hint, m.stage);
    // Until the automaton is built, every run may be there.
    for (const run of known ?? this.index.get()?.find(text) ?? this.allRuns) for (const m of this.byRun[run]!) visit(m.hint, m.stage);
  }

  /** The stages, in kb order, with a hint that `holds` in `text` (`holds` is asked only of hints that may). */
  stagesIn(text: string, holds: (hint: string) => boolean, known?: readonly number[]): Stage[] {
    const held: boolean[] = [];
    this.each(
      text,
      (hint, stage) => {
        if (!held[stage] && holds(hint)) held[stage] = true;
      },
      known,
    );
    return this.stages.filter((_, stage) => held[stage]);
  }

  /** Whether a line holding the runs `known` (undefined: none) may hold a hint. */
  mayHold(known: readonly number[] | undefined): boolean {
    return known !== undefined || this.always.length > 0;
  }

  /** The lines that may hold a hint, ascending. */
  linesOf(lines: readonly string[], found?: readonly (number[] | undefined)[]): number[] {
    if (this.always.length || !found) return lines.map((_, i) => i);
    return [...found.reduce<readonly number[]>((all, at) => (at ? union(all, at) : all), [])];
  }

  /** The first stage, in kb order, with a hint that `holds` in `text`. */
  firstIn(text: string, holds: (hint: string) => boolean, known?: readonly number[]): Stage | undefined {
    let first = this.stages.length;
    this.each(
      text,
      (hint, stage) => {
        if (stage < first && holds(hint)) first = stage;
      },
      known,
    );
    return this.stages[first];
  }

  /** The stage of the hint that `score`s highest in `text` (below 0: not there); a tie goes to the earlier stage in kb order. */
  best(text: string, score: (hint: string) => number): Stage | undefined {
    let best = -1;
    let at = this.stages.length;
    this.each(text, (hint, stage) => {
      const s = score(hint);
      if (s > best || (s === best && s >= 0 && stage < at)) {
        best = s;
        at = stage;
      }
    });
    return this.stages[at];
  }
}

/**
 * A kb name glob (`*` for any run of characters), matched case-insensitively (against a name
 * already lower-cased: a name is tried against every glob) by the greedy two-pointer walk: at
 * most length × length steps whatever the pattern, where a regular expression built from
 * `*a*a*a*…` would backtrack.
 */
function glob(pattern: string): (lowerName: string) => boolean {
  const p = pattern.toLowerCase();
  return (n) => {
    let i = 0;
    let j = 0;
    let star = -1;
    let resume = 0;
    while (i < n.length) {
      if (j < p.length && p[j] !== '*' && p[j] === n[i]) {
        i++;
        j++;
      } else if (j < p.length && p[j] === '*') {
        star = j++;
        resume = i;
      } else if (star >= 0) {
        j = star + 1;
        i = ++resume;
      } else return false;
    }
    while (j < p.length && p[j] === '*') j++;
    return j === p.length;
  };
}

export function compileStages(hints: StageHints): CompiledStages {
  const lists = (kind: 'frames' | 'phrases' | 'events') => hints.stages.map((s) => ({ stage: s.stage as Stage, hints: s[kind].map(fold) }));
  const globLists = (kind: 'nodes' | 'models') => hints.stages.map((s) => ({ stage: s.stage as Stage, hints: s[kind] }));
  const pieces = (pattern: string) => pattern.toLowerCase().replace(/\*/g, ' ');
  const globs = new Map(hints.stages.flatMap((s) => [...s.nodes, ...s.models]).map((n) => [n, { test: glob(n), literal: n.replace(/\*/g, '').length }]));
  return {
    nodes: new HintLists(globLists('nodes'), pieces),
    models: new HintLists(globLists('models'), pieces),
    globs,
    notNodes: new Set(hints.notNodes.map((n) => n.toLowerCase())),
    // `fn:decode*` and `path:vae` name what they look for after their prefix.
    frames: new HintLists(lists('frames'), (hint) => hint.replace(/^(?:fn|path):/, '').replace(/\*$/, '')),
    phrases: new HintLists(lists('phrases')),
    events: new HintLists(lists('events')),
  };
}

/**
 * The stage a node class name belongs to (the failing node in a log, or a name a user typed).
 * The glob that spells out most of the name decides, so `SamplerCustom*` beats `SAM*` for
 * SamplerCustomAdvanced whatever the order of the lists; equal ones go to the earlier stage.
 */
export function stageOfNode(node: string, compiled: CompiledStages): Stage | undefined {
  const lower = node.toLowerCase();
  if (compiled.notNodes.has(lower)) return undefined;
  return compiled.nodes.best(lower, (hint) => {
    const n = compiled.globs.get(hint)!;
    return n.test(lower) ? n.literal : -1;
  });
}

/**
 * True when `hint` occurs in `text` at the start of a word ("vae" in "video vae v3", not in
 * "nvae"); a hint that starts with punctuation (".to(device") may follow anything. A `#` in a
 * hint stands for a number ("sampling # frames").
 */
function atWordStart(text: string, hint: string): boolean {
  // Most hints hold no number: they are looked for as they are, without splitting.
  const hash = hint.indexOf('#');
  const head = hash < 0 ? hint : hint.slice(0, hash);
  const anywhere = !/^[a-z0-9]/.test(head);
  for (let at = text.indexOf(head); at >= 0; at = text.indexOf(head, at + 1)) {
    if ((anywhere || at === 0 || !/[a-z0-9]/.test(text[at - 1]!)) && (hash < 0 || numbersThen(text, at + head.length, hint.slice(hash + 1)))) return true;
  }
  return false;
}

/** Whether `text` from `at` reads a number, then `rest` (whose own `#`s are numbers too). */
function numbersThen(text: string, at: number, rest: string): boolean {
  for (const piece of rest.split('#')) {
    const start = at;
    while (at < text.length && at - start < 7 && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at++;
    if (at === start || !text.startsWith(piece, at)) return false;
    at += piece.length;
  }
  return true;
}

const NODE_REPORT = gate(/node type:?\**:?\s{0,4}`?([^`*\n]{1,80})/i);
const NODE_EXECUTING = gate(/error occurred when executing\s{1,3}([^:\n]{1,80}):/i);
const NODE_NAME = /^[A-Za-z][\w+-]{2,60}(?: \([\w .+-]{1,30}\))?$/;
/** "KSampler : XPU out of memory ..." / "KSampler: Allocation on device"; not "Requested : 3.00 GiB". */
const NODE_PREFIX = /^\s{0,4}([A-Z][\w+-]{2,60}(?: \([\w .+-]{1,30}\))?)\s{0,2}:\s{1,2}(?![\d.]{1,12}\s{0,2}[KMGT]?i?B\b)\S/;
/** A CamelCase or all-caps identifier, the shape of a node class name in a sentence. */
const NODE_WORD = /\b[A-Za-z][A-Za-z0-9]{4,60}\+?/g;
/** A capitalised word right before a node word, which a display name may have split off ("Load" FramePackModel). */
const DISPLAY_WORD = /\b([A-Z][a-z]{1,10}) $/;
const FRAME_LINE = gate(/^\s{0,12}(?:File|Arquivo|Fichier|Datei|文件)\s{1,2}"([^"\n]{1,400})", (?:line|linha|ligne|Zeile|行) \d{1,7}, (?:in|em|dans) ([^\n]{1,120})$/);
const FRAME = FRAME_LINE.re;
/** A log's first line may be a frame cut before its path ended: `wan/modules/vae.py", line 32, in forward`. */
const CUT_FRAME = /^\s{0,12}([^"\n]{1,400})", (?:line|linha|ligne|Zeile|行) \d{1,7}, (?:in|em|dans) ([^\n]{1,120})$/;

/**
 * Among the lines that may hold a frame, one before the first whole frame that starts a block (the
 * paste's first line, or one after an empty line) with a cut frame.
 */
function cutFrame(lines: readonly string[], candidates: readonly number[]): number | undefined {
  for (const i of candidates) {
    if (FRAME.test(lines[i]!)) return undefined;
    if ((i === 0 || !lines[i - 1]!.trim()) && CUT_FRAME.test(lines[i]!)) return i;
  }
  return undefined;
}
const TRACEBACK_START = gate(/traceback \(most recent call last\)|^#{1,3} stack trace|during handling of the above exception|the above exception was the direct cause/i);
/** An exception line ends one traceback: frames beyond it belong to another. */
const EXCEPTION_LINE = gate(/^\s{0,12}[\w.]{1,80}(?:Error|Exception)(?::|$)|!!!\s?exception during processing/i);
const BACKGROUND_THREAD = /^\s{0,4}exception in thread\b/i;
/**
 * A model being loaded to the GPU: ComfyUI's "Requested to load X", or Forge's
 * "[Memory Management] Target: X, Free GPU: ..." (its load_models_gpu), which Forge prints without
 * a newline, so whatever happened during the move (the error too) ends that same line.
 */
const REQUESTED = gate(/requested to load\s{1,2}([\w.]{1,80})|(\[memory management\] target:)\s{0,2}([\w.]{1,80})/i);
/** A run starts afresh: what the previous prompt loaded says nothing about this one. */
const RUN_START = gate(/^\s{0,4}(?:got prompt|prompt executed in)\b/i);
// A tqdm bar ("  0%|          | 0/20 [00:00<?, ?it/s]"); OCR often reads the bar as l, I or [.
const PROGRESS = gate(/\d{1,3}%\s{0,2}[|lI[]|\d{1,5}\/\d{1,5} \[\d\d:\d\d</, 1);
const PROGRESS_LABEL = /^(.{0,120}?)\d{1,3}%\s{0,2}[|lI[]/;
const FINISHED_BAR = /(?<!\d)(?:100%|(\d{1,5})\/\1(?!\d))/;
/** A log line that ends its own stage ("loading checkpoint done."), as a finished bar does. */
const STAGE_DONE = /\b(?:done|finished|completed?)[.!]?\s*$/i;
/** What follows a word that names a memory figure: " Require: 189.00 MB". */
const LABELS_A_FIGURE = /^[\w ]{0,30}:\s{0,2}-?[\d.]{1,12}\s{0,2}[KMGT]i?B\b/;
const MODEL_PREFIX = /^(?:model_type|Using|Loading|loaded|Requested|Model|Diffusion|CLIP|VAE)\b/;
/** Words that make a line a person's sentence rather than a program's output. */
const PROSE = /\b(?:i|i'm|i've|my|me|when|whenever|while|after|trying|tried|get|got|getting|gets|run|running|ran|use|using|it|this|then|fails?|failed|error|crash(?:es|ed)?)\b/gi;
/** Program output: frames, timestamps, `[tags]`, `Warning:`-style prefixes, tables, report markup. */
const LOG_SHAPED = /^\s{0,12}(?:File "|Traceback|\[|\d{1,4}[-:/.]\d|[\w.]{1,80}(?:Error|Exception):|[A-Za-z][\w ]{1,24}:\s|at |>>|\*\*|#|\||-{2,}|={2,})/;
const CJK = /[\u4e00-\u9fff]/g;
const MEMORY_TALK = /out of memory|\boom\b|vram|显存|内存|memory|crash|fail|error|报错/i;

export interface StageFacts {
  node?: string;
  stage?: Stage;
  evidence: { node?: Evidence; stage?: Evidence };
}

/** A dialog's title: the node's name on its own line above the message (OCR leaves stray marks: "#*CheckpointLoaderSimple"). */
function dialogTitle(lines: readonly string[], messageLine: number): { node: string; line: number } | undefined {
  for (let i = messageLine - 1; i >= Math.max(0, messageLine - 5); i--) {
    const raw = lines[i]!.trim();
    const t = raw.replace(/^[^A-Za-z]{1,3}|[^A-Za-z0-9)+]{1,3}$/g, '');
    // Past the dialog's own memory and hint lines, and a wrapper's "backend='inductor' raised:".
    if (!t || /memory|allocation on device|^tips:/i.test(t) || (/:$/.test(raw) && /[\s=]/.test(raw))) continue;
    // A node's name or title holds a capital (KSampler, easy kSampler); a program's status word ("success") does not.
    if (NODE_NAME.test(t) && /[A-Z]/.test(t) && !MODEL_PREFIX.test(t) && !/error|exception|traceback/i.test(t)) return { node: t, line: i };
    return undefined;
  }
  return undefined;
}

/** The failing node's class name, from the report or toast formats, or from the lines around the error. */
function findNode(text: GatedLines, errorLine: number | undefined, compiled: CompiledStages, memoryLines: number[]): { node: string; line: number } | undefined {
  const { lines } = text;
  for (const i of [...text.linesOf([NODE_REPORT, NODE_EXECUTING])].reverse()) {
    const m = NODE_REPORT.re.exec(lines[i]!) ?? NODE_EXECUTING.re.exec(lines[i]!);
    if (m) return { node: m[1]!.trim(), line: i };
  }
  if (errorLine === undefined) return undefined;
  const prefix = NODE_PREFIX.exec(lines[errorLine]!);
  if (prefix && !/error|exception|warning/i.test(prefix[1]!)) return { node: prefix[1]!, line: errorLine };
  // A bare node name just above the error block (copied from the UI's error dialog).
  const title = dialogTitle(lines, errorLine);
  if (title) return title;
  // A node name somewhere on the error line itself ("TiledSampler v2.5: sampling failed (OutOfMemoryError..."),
  // not a word that labels a memory figure (Forge's "Inference Require: 189.00 MB"); of several, the
  // last, nearest the failure ("the Sampler completing its job, and then CogVideo Decode failing with ...").
  const line = lines[errorLine]!;
  let named: string | undefined;
  for (const m of line.matchAll(CAPITALISED_WORD)) {
    const word = m[0];
    if (/[a-z]/.test(word) && !/error|exception/i.test(word) && !LABELS_A_FIGURE.test(line.slice(m.index! + word.length)) && stageOfNode(word, compiled)) named = word;
  }
  if (named) return { node: named, line: errorLine };
  // The same failure shown twice (the UI's dialog pasted above the console's traceback): the
  // dialog's title names the node, if it is a node we know.
  for (const line of [...memoryLines].reverse()) {
    const other = line !== errorLine ? dialogTitle(lines, line) : undefined;
    if (other && stageOfNode(other.node, compiled)) return other;
  }
  return undefined;
}

/** An identifier in quotes: `'text_encoder'`, `"vae"`. */
const QUOTED_NAME = /(['"`])[\w.-]{1,80}\1/g;

/** A word (between blanks and colons) that could be a node's class name: one search of the line, where testing every word cost a search each. */
const CAPITALISED_WORD = /(?<![^\s:])[A-Z][A-Za-z0-9]{3,60}\+?(?![^\s:])/g;

/** Whether `re` (global) matches `text` at least `n` times: counted without collecting the matches. */
function matchesAtLeast(re: RegExp, text: string, n: number): boolean {
  re.lastIndex = 0;
  let k = 0;
  while (k < n && re.test(text)) k++;
  re.lastIndex = 0;
  return k >= n;
}

const BLANKS = /\s{1,4}/g;

// Five words or more: four runs of blanks between them (as splitting at /\s{1,4}/ counts them).
const isProse = (line: string) =>
  !LOG_SHAPED.test(line) && ((matchesAtLeast(BLANKS, line.trim(), 4) && matchesAtLeast(PROSE, line, 2)) || matchesAtLeast(CJK, line, 4));

/**
 * A node or stage the user names in their own sentences ("the KSampler node runs out of memory",
 * "VAE 解码时爆显存"). Only an unambiguous mention counts: one stage, or one stage named in the
 * sentence that talks about the failure. Only a line holding a node name's or a phrase's run can
 * name one.
 */
function stageInProse(lines: readonly string[], compiled: CompiledStages, on?: RunsOnLines): { stage: Stage; line: number } | undefined {
  const named: { stage: Stage; line: number; aboutFailure: boolean }[] = [];
  lines.forEach((line, i) => {
    if ((on && !compiled.nodes.mayHold(on.nodes[i]) && !compiled.phrases.mayHold(on.phrases[i])) || !isProse(line)) return;
    const stages = new Set<Stage>();
    for (const m of line.matchAll(NODE_WORD)) {
      // A node class name has an upper-case letter past its first ("KSampler", "VAEDecode").
      if (!/^.[^A-Z]{0,60}$/.test(m[0])) {
        // A display name may put a space into the class name ("the Load FramePackModel step").
        const word = DISPLAY_WORD.exec(line.slice(Math.max(0, m.index! - 12), m.index))?.[1];
        const s = (word && stageOfNode(word + m[0], compiled)) || stageOfNode(m[0], compiled);
        if (s) stages.add(s);
      }
    }
    const folded = fold(line);
    for (const s of compiled.phrases.stagesIn(line, (p) => atWordStart(folded, p), on && (on.phrases[i] ?? NONE))) stages.add(s);
    for (const stage of stages) named.push({ stage, line: i, aboutFailure: MEMORY_TALK.test(line) });
  });
  const distinct = (list: typeof named) => [...new Set(list.map((n) => n.stage))];
  if (distinct(named).length === 1) return named[0];
  const aboutFailure = named.filter((n) => n.aboutFailure);
  return distinct(aboutFailure).length === 1 ? aboutFailure[0] : undefined;
}

interface Frame {
  /** `path", line in function | code`, the path inside its package (custom-node folder or site-packages cut off); folded. */
  text: string;
  path: string;
  fn: string;
  /** The custom-node folder holding the file, a weaker hint than anything inside it. */
  pack?: string;
  line: number;
}

/**
 * A kb frame hint: `fn:name` is the function (`fn:decode*` any whose name starts so), `path:word`
 * a word of the file's path inside its package, anything else a piece of the whole frame.
 */
function frameHas(frame: Pick<Frame, 'text' | 'path' | 'fn'>, hint: string): boolean {
  if (hint.startsWith('fn:')) {
    const name = hint.slice(3);
    return name.endsWith('*') ? frame.fn.startsWith(name.slice(0, -1)) : frame.fn === name;
  }
  if (hint.startsWith('path:')) return atWordStart(frame.path, hint.slice(5));
  return atWordStart(frame.text, hint);
}

/** Splits a frame's path into the custom-node pack and the part that says what the code does. */
function framePlace(path: string): { inner: string; pack?: string } {
  const p = path.replaceAll('\\', '/');
  const custom = /\/custom_nodes\/([^/]{1,120})\/(.{1,400})$/i.exec(p);
  if (custom) return { pack: custom[1]!, inner: custom[2]! };
  const lib = /\/(?:site|dist)-packages\/(.{1,400})$/i.exec(p);
  if (lib) return { inner: lib[1]! };
  // Past the install folder: user folder names ("D:/upscale tests/ComfyUI/...") say nothing.
  const root = /\/comfyui\/(?!.{0,400}\/comfyui\/)(.{1,400})$/i.exec(p);
  return { inner: root ? root[1]! : p.split('/').slice(-3).join('/') };
}

/**
 * A frame line, read as far as a reader asks: most readings stop at the innermost frame that
 * names a stage, and look at few of a frame's parts.
 */
class FrameLine implements Frame {
  private placed?: { inner: string; pack?: string };
  private readonly parts: { text?: string; path?: string; fn?: string; pack?: string } = {};

  constructor(
    private readonly m: RegExpExecArray,
    /** The line below: the frame's code, unless it is the next frame. */
    private readonly next: string,
    readonly line: number,
  ) {}

  private get place() {
    return (this.placed ??= framePlace(this.m[1]!));
  }

  get text(): string {
    if (this.parts.text === undefined) {
      const code = FRAME.test(this.next) ? '' : this.next.trim();
      // Shaped like Python prints it, so kb hints such as `vae.py", line` or `in decode |` match.
      this.parts.text = fold(`${this.place.inner}", line in ${this.m[2]} | ${code}`);
    }
    return this.parts.text;
  }

  get path(): string {
    return (this.parts.path ??= fold(this.place.inner));
  }

  get fn(): string {
    return (this.parts.fn ??= fold(this.m[2]!.trim()));
  }

  get pack(): string | undefined {
    const pack = this.place.pack;
    return pack ? (this.parts.pack ??= fold(pack)) : undefined;
  }
}

/**
 * The frames of the traceback that ends in the error, innermost first. Python prints frames
 * above the exception line; ComfyUI's error report puts the message first and the stack below.
 * Frames of another traceback in the same paste (a chained one, an earlier run) are left out.
 */
function errorFrames(text: GatedLines, errorLine: number | undefined): Frame[] {
  const { lines } = text;
  const full = text.linesOf([FRAME_LINE]);
  const cut = cutFrame(lines, full);
  const frameLines = cut === undefined ? full : [cut, ...full];
  const frameAt = (i: number): Frame | undefined => {
    const m = (i === cut ? CUT_FRAME : FRAME).exec(lines[i]!);
    // Some copies put an empty line after every line: the code is then two lines down.
    const code = lines[i + 1]?.trim() ? lines[i + 1]! : (lines[i + 2] ?? '');
    return m ? new FrameLine(m, code, i) : undefined;
  };
  const collect = (from: number, to: number) => {
    const out: Frame[] = [];
    for (const i of frameLines) {
      const f = i >= from && i < to ? frameAt(i) : undefined;
      if (f) out.push(f);
    }
    return out.reverse();
  };
  if (errorLine === undefined) return collect(0, lines.length);

  // A paste cut down to its last code line still names the innermost call (Python 3.11+ puts
  // a line of carets under it).
  let codeAt = errorLine - 1;
  while (codeAt > 0 && /^\s{0,80}[\^~]{1,400}\s{0,4}$/.test(lines[codeAt]!)) codeAt--;
  const last = lines[codeAt];
  const codeLine: Frame[] =
    codeAt >= 0 && last && /^\s{1,}\S/.test(last) && !FRAME.test(last) && !FRAME.test(lines[codeAt - 1] ?? '')
      ? [{ text: fold(`| ${last.trim()}`), path: '', fn: '', line: codeAt }]
      : [];
  // The traceback starts past the last line above the error that starts or ends one.
  const stops = text.linesOf([TRACEBACK_START, EXCEPTION_LINE]);
  const stop = stops.findLast((j) => j < errorLine && (TRACEBACK_START.re.test(lines[j]!) || EXCEPTION_LINE.re.test(lines[j]!)));
  const above = [...codeLine, ...collect(stop === undefined ? 0 : stop + 1, errorLine)];
  if (above.length) return above;
  // ComfyUI's report: the stack runs from below the message to the next exception line.
  const next = text.linesOf([EXCEPTION_LINE]).find((j) => j > errorLine && EXCEPTION_LINE.re.test(lines[j]!));
  const below = collect(errorLine + 1, Math.min(lines.length, errorLine + 400, next ?? Infinity));
  // The error's own traceback was cut off: an earlier traceback in the paste (the same failure
  // in an earlier run, most often) is the next best witness.
  return below.length ? below : collect(0, errorLine);
}

/** Where the error's traceback begins: what is written right around it describes the failure. */
function blockStart(text: GatedLines, errorLine: number): number {
  const start = text.linesOf([TRACEBACK_START]).findLast((i) => i <= errorLine && i >= errorLine - 400 && TRACEBACK_START.re.test(text.lines[i]!));
  return start ?? errorLine;
}

const stageOfModel = (model: string, compiled: CompiledStages) => {
  const lower = model.toLowerCase();
  return compiled.models.firstIn(lower, (pattern) => compiled.globs.get(pattern)!.test(lower));
};
/** `known`: the event runs in `text`, when it is a line the caller's pass read. */
const stageOfEvent = (text: string, compiled: CompiledStages, known?: readonly number[]) => {
  let folded: string | undefined;
  return compiled.events.firstIn(text, (e) => atWordStart((folded ??= fold(text)), e), known);
};

/**
 * The last thing the run started before the error: a model ComfyUI was asked to load, a loader
 * announcing itself, or a progress bar (sampling, unless its label says loading or decoding).
 */
function lastStarted(paste: GatedLines, end: number, compiled: CompiledStages, runs?: StageRuns, on?: RunsOnLines): { stage: Stage; line: number; strength: number } | undefined {
  let last: { stage: Stage; line: number; strength: number } | undefined;
  let requestedUnknown = false;
  /** Whether `last` is a model ComfyUI was asked to load (rather than a bar or a log line). */
  let lastRequested = false;
  // Only lines that may start something can change the answer.
  const visit = [...new Set([...paste.linesOf([RUN_START, REQUESTED, PROGRESS]), ...compiled.events.linesOf(paste.lines, runs?.events)])].sort((a, b) => a - b);
  for (const i of visit) {
    if (i > end) break;
    const text = paste.lines[i]!;
    const requested = REQUESTED.re.exec(text);
    // The error's own line counts only when it is Forge's unfinished load line (group 2).
    if (i === end && !requested?.[2]) break;
    if (RUN_START.re.test(text)) {
      last = undefined;
      continue;
    }
    if (requested) {
      const byModel = stageOfModel(requested[1] ?? requested[3]!, compiled);
      // A diffusion model (not named in any list) is loaded to sample; until a bar shows
      // sampling began, the load itself is what was running.
      requestedUnknown = !byModel;
      last = { stage: byModel ?? 'model_load', line: i, strength: byModel ? 0.7 : 0.55 };
      lastRequested = true;
      continue;
    }
    if (PROGRESS.re.test(text)) {
      const label = PROGRESS_LABEL.exec(text)?.[1] ?? '';
      const labelled = label.trim() ? stageOfEvent(label, compiled) : undefined;
      // A bar with no label of its own after the VAE was requested is the VAE's (a tiled or a
      // video decode shows one), running or finished: the decode is still what ran.
      if (!labelled && lastRequested && (last?.stage === 'vae_decode' || last?.stage === 'vae_encode')) continue;
      lastRequested = false;
      // A bar at its end (50/50, 100%): that stage is over, and whatever ran after it (a decode,
      // a second sampler whose first step never ended) printed nothing, so the log cannot say.
      if (FINISHED_BAR.test(text)) {
        last = undefined;
        continue;
      }
      last = { stage: labelled ?? 'sampling', line: i, strength: requestedUnknown || labelled ? 0.7 : 0.6 };
      continue;
    }
    const event = stageOfEvent(text, compiled, on && (on.events[i] ?? NONE));
    if (event) {
      last = STAGE_DONE.test(text) ? undefined : { stage: event, line: i, strength: 0.6 };
      lastRequested = false;
    }
  }
  return last;
}

/** Where each run of `compiled`'s events, node names and phrases is in the lines. */
export interface StageRuns {
  events: readonly (number[] | undefined)[];
  nodes: readonly (number[] | undefined)[];
  phrases: readonly (number[] | undefined)[];
}

/** The same the other way round: for each kind of runs, the runs (by index) on each line; undefined where there are none. */
type RunsOnLines = StageRuns;
const NONE: readonly number[] = [];

/** The runs on each line, from the lines each run is on. */
function byLine(found: readonly (number[] | undefined)[]): (number[] | undefined)[] {
  const on: (number[] | undefined)[] = [];
  found.forEach((lines, run) => {
    if (lines) for (const i of lines) (on[i] ??= []).push(run);
  });
  return on;
}

/** The lines from `from` to `to` (which hold `at`), nearest `at` first (the one above before the one below). */
function nearestFirst(at: number, from: number, to: number): number[] {
  const order = [at];
  for (let d = 1; at - d >= from || at + d <= to; d++) {
    if (at - d >= from) order.push(at - d);
    if (at + d <= to) order.push(at + d);
  }
  return order;
}

/** `runs`: when the caller's pass found them. */
export function readStage(text: GatedLines, errorLine: number | undefined, compiled: CompiledStages, memoryLines: number[] = [], runs?: StageRuns): StageFacts {
  const { lines } = text;
  const on = runs && { events: byLine(runs.events), nodes: byLine(runs.nodes), phrases: byLine(runs.phrases) };
  const evidence: StageFacts['evidence'] = {};
  const at = (line: number, source: string, strength: number): Evidence => ({ line, text: lines[line] ?? '', source, strength });
  const found = findNode(text, errorLine, compiled, memoryLines);
  if (found) evidence.node = at(found.line, 'node name', 1);
  const node = found?.node;
  const done = (stage: Stage, ev: Evidence): StageFacts => {
    evidence.stage = ev;
    return node ? { node, stage, evidence } : { stage, evidence };
  };

  const frames = errorFrames(text, errorLine);
  let byFrame: { stage: Stage; line: number } | undefined;
  for (const frame of frames) {
    const hit = compiled.frames.firstIn(frame.text, (f) => frameHas(frame, f));
    if (hit) {
      byFrame = { stage: hit, line: frame.line };
      break;
    }
  }

  // The node is where the run was, the innermost telling frame what it was doing when memory ran
  // out: a sampler node loading its model, SUPIR moving its ControlNet, a diffusion upscaler sampling.
  const byNode = node ? stageOfNode(node, compiled) : undefined;
  if (byNode && byFrame && byFrame.stage !== byNode) return done(byFrame.stage, at(byFrame.line, 'stack frame', 0.85));
  if (byNode) return done(byNode, at(found!.line, 'failing node', 1));

  const prose = stageInProse(lines, compiled, on);
  if (prose) return done(prose.stage, at(prose.line, 'your words', 0.75));

  if (byFrame) return done(byFrame.stage, at(byFrame.line, 'stack frame', 0.85));
  for (const frame of frames) {
    const pack = frame.pack;
    const byPack = pack && (stageOfNode(pack, compiled) ?? compiled.frames.firstIn(pack, (f) => frameHas({ text: pack, path: pack, fn: '' }, f)));
    if (byPack) return done(byPack, at(frame.line, 'custom node folder', 0.6));
  }

  if (errorLine !== undefined) {
    // What the log says right around the error ("Error in Phase 1 (Encoding)"), nearest first.
    const block = blockStart(text, errorLine);
    const from = Math.max(0, block - 6);
    const to = Math.min(lines.length - 1, errorLine + 13);
    for (const i of nearestFirst(errorLine, from, to)) {
      // Only a line holding a phrase's run can say it.
      if (on && !compiled.phrases.mayHold(on.phrases[i])) continue;
      // Sentences were weighed by the prose reading (a mention it found ambiguous stays so), and
      // a line that starts a stage ("Loading model from ...") is the timeline's, not a failure,
      // unless the failure is on it ("VAE decoding displays 'Allocation on device'").
      if (isProse(lines[i]!) || (i !== errorLine && stageOfEvent(lines[i]!, compiled, on && (on.events[i] ?? NONE)))) continue;
      // A name in quotes is a part the program lists ("Hooked to model 'text_encoder'", a state
      // dict's keys), not what it says failed.
      let said: string | undefined;
      const hit = compiled.phrases.firstIn(lines[i]!, (p) => atWordStart((said ??= fold(lines[i]!.replace(QUOTED_NAME, ' '))), p), on && (on.phrases[i] ?? NONE));
      if (hit) return done(hit, at(i, 'words near the error', 0.65));
    }
    // A background thread's error (A1111's memory monitor) did not happen in the run's own stage.
    if (BACKGROUND_THREAD.test(lines[block] ?? '') || BACKGROUND_THREAD.test(lines[block - 1] ?? '')) {
      return node ? done('other', at(found!.line, 'failing node', 1)) : { evidence };
    }
  }

  const started = lastStarted(text, errorLine ?? lines.length, compiled, runs, on);
  if (started) return done(started.stage, at(started.line, 'what the log started last', started.strength));
  return node ? { node, stage: 'other', evidence } : { evidence };
}
