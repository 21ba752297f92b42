// Which node and which stage of the workflow failed. Three readings, most reliable first: the
// node's class name, the innermost stack frames, then what ComfyUI was loading and whether
// sampling had started. The stage vocabulary and name lists live in kb/stages.yaml.
import type { StageHints } from '../../kb/schema.ts';
import type { Evidence, Stage } from './types.ts';

export interface CompiledStages {
  stages: { stage: Stage; nodes: RegExp[]; frames: string[]; models: RegExp[]; phrases: string[] }[];
}

/** OCR reads `_` as a space: frames and hints are compared with both folded to spaces. */
const foldFrame = (s: string) => s.toLowerCase().replace(/_/g, ' ');

const glob = (pattern: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.{0,80}')}$`, 'i');

export function compileStages(hints: StageHints): CompiledStages {
  return {
    stages: hints.stages.map((s) => ({
      stage: s.stage as Stage,
      nodes: s.nodes.map(glob),
      frames: s.frames.map(foldFrame),
      models: s.models.map(glob),
      phrases: s.phrases.map((p) => p.toLowerCase()),
    })),
  };
}

const NODE_REPORT = /node type:?\**:?\s{0,4}`?([^`*\n]{1,80})/i;
const NODE_EXECUTING = /error occurred when executing\s{1,3}([^:\n]{1,80}):/i;
const NODE_NAME = /^[A-Za-z][\w+-]{2,60}(?: \([\w .+-]{1,30}\))?$/;
/** "KSampler : XPU out of memory ..." / "KSampler: Allocation on device" */
const NODE_PREFIX = /^\s{0,4}([A-Z][\w+-]{2,60}(?: \([\w .+-]{1,30}\))?)\s{0,2}:\s{1,2}\S/;
const FRAME = /^\s{0,12}(?:File|Arquivo|Fichier|Datei|文件)\s{1,2}"([^"\n]{1,400})", (?:line|linha|ligne|Zeile|行) \d{1,7}, (?:in|em|dans) ([^\n]{1,120})$/;
const REQUESTED = /requested to load\s{1,2}([\w.]{1,80})/i;
// A tqdm bar ("  0%|          | 0/20 [00:00<?, ?it/s]"); OCR often reads the bar as l, I or [.
const PROGRESS = /\d{1,3}%\s{0,2}[|lI[]|\d{1,5}\/\d{1,5} \[\d\d:\d\d</;
const MODEL_PREFIX = /^(?:model_type|Using|Loading|loaded|Requested|Model|Diffusion|CLIP|VAE)\b/;

export interface StageFacts {
  node?: string;
  stage?: Stage;
  evidence: { node?: Evidence; stage?: Evidence };
}

/** The stage a node class name belongs to (the failing node in a log, or a name a user typed). */
export function stageOfNode(node: string, compiled: CompiledStages): Stage | undefined {
  return compiled.stages.find((s) => s.nodes.some((re) => re.test(node)))?.stage;
}

/** The failing node's class name, from the report or toast formats, or from the line above the error. */
function findNode(lines: string[], errorLine: number | undefined, compiled: CompiledStages): { node: string; line: number } | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = NODE_REPORT.exec(lines[i]!) ?? NODE_EXECUTING.exec(lines[i]!);
    if (m) return { node: m[1]!.trim(), line: i };
  }
  if (errorLine === undefined) return undefined;
  const prefix = NODE_PREFIX.exec(lines[errorLine]!);
  if (prefix && !/error|exception|warning/i.test(prefix[1]!)) return { node: prefix[1]!, line: errorLine };
  // A bare node name just above the error block (copied from the UI's error dialog), past the
  // dialog's own memory and hint lines.
  for (let i = errorLine - 1; i >= Math.max(0, errorLine - 5); i--) {
    // OCR leaves stray marks around a dialog's title ("#*CheckpointLoaderSimple").
    const t = lines[i]!.trim().replace(/^[^A-Za-z]{1,3}|[^A-Za-z0-9)+]{1,3}$/g, '');
    if (!t || /memory|allocation on device|^tips:/i.test(t)) continue;
    if (NODE_NAME.test(t) && !MODEL_PREFIX.test(t) && !/error|exception|traceback/i.test(t)) return { node: t, line: i };
    break;
  }
  // A node name somewhere on the error line itself (OCR'd dialogs run everything together).
  for (const word of lines[errorLine]!.split(/[\s:]{1,4}/)) {
    if (/^[A-Z][A-Za-z0-9]{3,60}\+?$/.test(word) && /[a-z]/.test(word) && !/error|exception/i.test(word) && stageOfNode(word, compiled)) {
      return { node: word, line: errorLine };
    }
  }
  return undefined;
}

/** Stack frames, innermost (printed last) first, as "path in function" plus the code line below. */
function framesInnermostFirst(lines: string[], errorLine: number | undefined): { text: string; line: number }[] {
  const frames: { text: string; line: number }[] = [];
  // A paste cut down to its last code line still names the innermost call.
  const above = errorLine !== undefined ? lines[errorLine - 1] : undefined;
  if (above && /^\s{2,}\S/.test(above) && !FRAME.test(lines[errorLine! - 2] ?? '') && !FRAME.test(above)) {
    frames.push({ text: foldFrame(`| ${above.trim()}`), line: errorLine! - 1 });
  }
  lines.forEach((l, i) => {
    const m = FRAME.exec(l);
    if (!m) return;
    const next = lines[i + 1] ?? '';
    const code = FRAME.test(next) ? '' : next.trim();
    // Shaped like Python prints it, so kb hints such as `vae.py", line` or `in decode` match.
    frames.push({ text: foldFrame(`${m[1]!.replace(/\\/g, '/')}", line in ${m[2]} | ${code}`), line: i });
  });
  return frames.reverse().sort((a, b) => b.line - a.line);
}

export function readStage(lines: string[], errorLine: number | undefined, compiled: CompiledStages): StageFacts {
  const evidence: StageFacts['evidence'] = {};
  const found = findNode(lines, errorLine, compiled);
  if (found) evidence.node = { line: found.line, text: lines[found.line]!, source: 'node name', strength: 1 };
  const node = found?.node;

  const byNode = node ? stageOfNode(node, compiled) : undefined;
  if (byNode) {
    evidence.stage = { line: found!.line, text: lines[found!.line]!, source: 'failing node', strength: 1 };
    return { node, stage: byNode, evidence };
  }

  for (const frame of framesInnermostFirst(lines, errorLine)) {
    const hit = compiled.stages.find((s) => s.frames.some((f) => frame.text.includes(f)));
    if (hit) {
      evidence.stage = { line: frame.line, text: lines[frame.line]!, source: 'stack frame', strength: 0.85 };
      return { node, stage: hit.stage, evidence };
    }
  }

  // What the log or the user says right around the error ("Error in Phase 1 (Encoding)").
  if (errorLine !== undefined) {
    for (let i = Math.max(0, errorLine - 6); i < Math.min(lines.length, errorLine + 13); i++) {
      const text = lines[i]!.toLowerCase();
      const hit = compiled.stages.find((s) => s.phrases.some((p) => text.includes(p)));
      if (hit) {
        evidence.stage = { line: i, text: lines[i]!, source: 'words near the error', strength: 0.65 };
        return { node, stage: hit.stage, evidence };
      }
    }
  }

  // What ComfyUI was loading last before the error, and whether sampling had begun.
  const end = errorLine ?? lines.length;
  let requested: { model: string; line: number } | undefined;
  let progressAfter = false;
  for (let i = 0; i < end; i++) {
    const m = REQUESTED.exec(lines[i]!);
    if (m) {
      requested = { model: m[1]!, line: i };
      progressAfter = false;
    } else if (PROGRESS.test(lines[i]!)) progressAfter = true;
  }
  if (requested) {
    const byModel = compiled.stages.find((s) => s.models.some((re) => re.test(requested!.model)))?.stage;
    const stage: Stage = byModel ?? (progressAfter ? 'sampling' : 'model_load');
    evidence.stage = { line: requested.line, text: lines[requested.line]!, source: 'requested to load', strength: byModel || progressAfter ? 0.7 : 0.55 };
    return { node, stage, evidence };
  }
  if (lines.slice(0, end).some((l) => PROGRESS.test(l))) {
    evidence.stage = { line: end - 1, text: '', source: 'sampling progress bar', strength: 0.6 };
    return { node, stage: 'sampling', evidence };
  }
  return node ? { node, stage: 'other', evidence } : { evidence };
}
