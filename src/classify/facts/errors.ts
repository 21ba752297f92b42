// Finds the failure in a paste: the exception lines, which kb signatures they carry, and from those
// which allocator (if any) ran out. "The first line of the exception decides the kind": a wording
// on the failing exception line outranks the same wording anywhere else in the paste.
import type { Signature } from '../../kb/schema.ts';
import { gate, type Gate, type GatedLines } from '../gates.ts';
import { union } from '../literals.ts';
import { PatternSet } from '../patterns.ts';
import type { Evidence, ExceptionInfo, OomKind } from './types.ts';

/** What a signature says ran out: a platform, or `gpu` for a wording any platform prints. */
export type Wording = OomKind | 'gpu';

/** The signature for an exception line no other signature explains. */
export const GENERIC = 'generic_exception';

/** On one line, the platform's own wording outranks the generic CUDA-named exception class. */
const OOM_PRECEDENCE: Wording[] = ['xpu', 'mps', 'directml', 'hip', 'ram', 'cuda', 'gpu'];

/** Every pattern of every signature in one set, and which signature each belongs to. */
export interface CompiledSignatures {
  signatures: Signature[];
  /** Their ids, in kb order. */
  ids: string[];
  set: PatternSet;
  /** For each pattern of the set, the index of its signature. */
  owner: number[];
  byId: Map<string, Signature>;
}

export function compileSignatures(signatures: Signature[]): CompiledSignatures {
  const owner = signatures.flatMap((sig, i) => sig.patterns.map(() => i));
  return { signatures, ids: signatures.map((s) => s.id), set: new PatternSet(signatures.flatMap((sig) => sig.patterns)), owner, byId: new Map(signatures.map((s) => [s.id, s])) };
}

/** A line that states the failure, with how directly it does so (lower rank = more direct). */
interface ErrorLine {
  line: number;
  rank: number;
  type?: string;
  message: string;
}

const REPORT_MESSAGE = gate(/exception message:?\**:?\s{0,4}(.{0,800})/i);
const REPORT_TYPE = gate(/exception type:?\**:?\s{0,4}`?([\w.]{1,120})/i);
const PROCESSING = gate(/!!!\s?exception during processing\s?!!!\s{0,4}(.{0,800})/i);
const EXECUTING = gate(/error occurred when executing\s{1,3}([^:\n]{1,80}):\s{0,4}(.{0,800})/i);
const PY_EXCEPTION = gate(/^\s{0,12}(?:[\w]{1,60}\.){0,6}([A-Za-z_]\w{0,60}(?:Error|Exception|Failed|Fault))(?::\s{0,4}(.{0,800}))?$/);

function errorLines(paste: GatedLines): ErrorLine[] {
  const { lines } = paste;
  const out: ErrorLine[] = [];
  let reportType: string | undefined;
  // A line holds the literals of one or two of the patterns at most: only those can match it.
  const exec = (g: Gate, line: number) => (paste.mayMatch(g, line) ? g.re.exec(lines[line]!) : null);
  for (const line of paste.linesOf([REPORT_TYPE, REPORT_MESSAGE, PROCESSING, EXECUTING, PY_EXCEPTION])) {
    let m: RegExpExecArray | null;
    if ((m = exec(REPORT_TYPE, line))) reportType = m[1];
    if ((m = exec(REPORT_MESSAGE, line))) {
      out.push({ line, rank: 0, type: reportType, message: m[1]!.trim() || (lines[line + 1] ?? '').trim() });
    } else if ((m = exec(PROCESSING, line))) {
      out.push({ line, rank: 1, message: m[1]!.trim() });
    } else if ((m = exec(EXECUTING, line))) {
      // Old toasts put the message on the next non-empty line.
      let next = line + 1;
      while (next < lines.length && next < line + 4 && !lines[next]!.trim()) next++;
      const message = m[2]!.trim() || (lines[next] ?? '').trim();
      out.push({ line: m[2]!.trim() ? line : next, rank: 1, message });
    } else if ((m = exec(PY_EXCEPTION, line))) {
      out.push({ line, rank: 2, type: m[1], message: (m[2] ?? '').trim() });
    }
  }
  return out;
}

export interface ErrorFacts {
  signatures: string[];
  primarySignature?: string;
  oom?: Wording;
  exception?: ExceptionInfo;
  recoveredVaeTiling: boolean;
  /** Every line where a memory wording (not a recovery warning) sits, in order. */
  memoryLines: number[];
  evidence: { oom?: Evidence; primarySignature?: Evidence; exception?: Evidence };
}

/** A new run, or the next step of one, begins: hits on either side are different messages. */
const RUN_BOUNDARY = gate(/^\s{0,4}(?:got prompt|prompt executed in|requested to load)\b|\d{1,3}%\s{0,2}\|/i, 1);

/** The first line of the last cluster of hits: where the last multi-line message starts. */
function startOfLastBlock(hitLines: number[], paste: GatedLines): number {
  const sorted = [...hitLines].sort((a, b) => a - b);
  const boundaries = paste.linesOf([RUN_BOUNDARY]);
  const apart = (a: number, b: number) => b - a > 8 || boundaries.some((i) => i > a && i < b && RUN_BOUNDARY.re.test(paste.lines[i]!));
  let i = sorted.length - 1;
  while (i > 0 && !apart(sorted[i - 1]!, sorted[i]!)) i--;
  return sorted[i]!;
}

/** `literalLines`: where the set's literals are in the lines, when the caller's pass found them. */
export function readErrors(paste: GatedLines, compiled: CompiledSignatures, literalLines?: readonly (number[] | undefined)[]): ErrorFacts {
  const { lines } = paste;
  /** Lines where each signature matched, in order. */
  const hits = new Map<string, number[]>();
  for (const { pattern, line } of compiled.set.scan(lines, literalLines)) {
    const id = compiled.signatures[compiled.owner[pattern]!]!.id;
    const list = hits.get(id) ?? [];
    if (!list.includes(line)) list.push(line);
    hits.set(id, list);
  }
  const { byId } = compiled;
  // A line that says no memory ran out ("complete without an OOM") takes back the memory words on it.
  const denied = new Set([...hits].flatMap(([id, list]) => (byId.get(id)!.denies ? list : [])));
  if (denied.size) {
    for (const [id, list] of hits) {
      if (!byId.get(id)!.oom) continue;
      const kept = list.filter((l) => !denied.has(l));
      if (kept.length) hits.set(id, kept);
      else hits.delete(id);
    }
  }
  for (const list of hits.values()) list.sort((a, b) => a - b);
  const found = compiled.ids.filter((id) => hits.has(id));
  const candidates = errorLines(paste).sort((a, b) => a.rank - b.rank || a.line - b.line);

  // Which non-benign signatures sit on (or right below) each exception line.
  const onLine = (e: ErrorLine) =>
    found.filter((id) => !byId.get(id)!.benign && hits.get(id)!.some((l) => l === e.line || (e.rank < 2 && l === e.line + 1)));

  // The most direct exception line that carries a specific wording decides; the generic
  // "some exception" signature only names the failure when nothing more specific does.
  let primary: { id: string; at: ErrorLine } | undefined;
  let oom: { kind: Wording; line: number; strength: number; source: string } | undefined;
  for (const e of candidates) {
    const ids = onLine(e);
    const specific = ids.filter((id) => id !== GENERIC);
    if (!specific.length) {
      if (!primary && ids.length) primary = { id: GENERIC, at: e };
      continue;
    }
    const memory = specific
      .filter((id) => byId.get(id)!.oom)
      .sort((a, b) => OOM_PRECEDENCE.indexOf(byId.get(a)!.oom!) - OOM_PRECEDENCE.indexOf(byId.get(b)!.oom!))[0];
    primary = { id: memory ?? specific[0]!, at: e };
    if (memory) oom = { kind: byId.get(memory)!.oom!, line: e.line, strength: 1, source: 'exception line' };
    break;
  }
  // No exception line names a specific failure: take a memory wording from anywhere (the last
  // one, as a paste may hold several runs), trusting it less when an unknown exception is shown.
  if (!primary || primary.id === GENERIC) {
    for (const id of found) {
      const sig = byId.get(id)!;
      if (!sig.oom || sig.benign) continue;
      const line = startOfLastBlock(hits.get(id)!, paste);
      const outranks = !oom || line > oom.line || (line === oom.line && OOM_PRECEDENCE.indexOf(sig.oom) < OOM_PRECEDENCE.indexOf(oom.kind));
      if (outranks) oom = { kind: sig.oom, line, strength: primary ? 0.6 : 0.8, source: 'memory wording' };
    }
  }
  // Chained wordings: ZLUDA/ROCm builds raise HIP errors through CUDA-named classes and vice versa;
  // a HIP wording anywhere makes a CUDA-worded OOM a HIP one.
  if ((oom?.kind === 'cuda' || oom?.kind === 'gpu') && found.some((id) => byId.get(id)!.oom === 'hip')) oom = { ...oom, kind: 'hip' };

  const exceptionLine = candidates[0];
  const evidence: ErrorFacts['evidence'] = {};
  if (oom) evidence.oom = { line: oom.line, text: lines[oom.line]!, source: oom.source, strength: oom.strength };
  if (primary) evidence.primarySignature = { line: primary.at.line, text: lines[primary.at.line]!, source: 'exception line', strength: 1 };
  if (exceptionLine) evidence.exception = { line: exceptionLine.line, text: lines[exceptionLine.line]!, source: 'exception line', strength: 1 };

  return {
    signatures: found.sort(),
    primarySignature: primary?.id,
    oom: oom?.kind,
    exception: exceptionLine && (exceptionLine.type ? { type: exceptionLine.type, message: exceptionLine.message, line: exceptionLine.line } : { message: exceptionLine.message, line: exceptionLine.line }),
    recoveredVaeTiling: hits.has('vae_tiled_retry'),
    memoryLines: [...found.reduce<readonly number[]>((lines, id) => (byId.get(id)!.oom && !byId.get(id)!.benign ? union(lines, hits.get(id)!) : lines), [])],
    evidence,
  };
}
