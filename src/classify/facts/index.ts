// Facts first, then rules: this module reads everything a paste says about the failure and the
// machine, and nothing here decides what the failure is (that is kb/entries/ over these facts).
import type { Kb } from '../../kb/load.ts';
import { GatedLines, gateLiterals } from '../gates.ts';
import { LazyIndex } from '../literals.ts';
import type { Normalized } from '../normalize.ts';
import { readAllocation } from './allocation.ts';
import { readEnvironment } from './environment.ts';
import { readJsonFacts } from './json.ts';
import { compileSignatures, readErrors, type CompiledSignatures } from './errors.ts';
import { compileStages, readStage, type CompiledStages } from './stage.ts';
import type { Facts, OomKind } from './types.ts';

export type { Facts, Evidence, OomKind, Stage } from './types.ts';

/** The kb compiled for reading: built once per kb, reused for every paste. */
export interface FactReader {
  signatures: CompiledSignatures;
  stages: CompiledStages;
  knownFlags: ReadonlySet<string>;
  /** kb/models.yaml: a ComfyUI model class ("Flux2") to its family's id. */
  models: ReadonlyMap<string, string>;
  /** The readers' gate literals, the kb signatures' literals, then the stage events', node names' and phrases' runs: one pass over a paste finds them all (from the second paste on). */
  literals: LazyIndex;
  /** Where the signatures' literals and each kind of runs start in it (known once it is built). */
  at: { signatures: number; events: number; nodes: number; phrases: number };
}

export function compileReader(kb: Kb): FactReader {
  const signatures = compileSignatures(kb.signatures);
  const stages = compileStages(kb.stages);
  const at = { signatures: 0, events: 0, nodes: 0, phrases: 0 };
  const literals = new LazyIndex(() => {
    const gates = gateLiterals();
    const kbLiterals = signatures.set.distinct;
    at.signatures = gates.length;
    at.events = at.signatures + kbLiterals.length;
    at.nodes = at.events + stages.events.runs.length;
    at.phrases = at.nodes + stages.nodes.runs.length;
    return [...gates, ...kbLiterals, ...stages.events.runs, ...stages.nodes.runs, ...stages.phrases.runs];
  }, 1);
  return {
    signatures,
    stages,
    knownFlags: new Set([...kb.flags.values()].filter((f) => f.status !== 'never').map((f) => f.flag)),
    models: new Map(kb.models.flatMap((m) => m.loads.map((c) => [c, m.id] as const))),
    literals,
    at,
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The out-of-memory kind of a platform; CUDA where none shows (ZLUDA prints CUDA's words too). */
function platformOom(backend: Facts['backend']): OomKind {
  switch (backend) {
    case 'mps':
    case 'directml':
    case 'xpu':
      return backend;
    case 'rocm':
      return 'hip';
    default:
      return 'cuda';
  }
}

export function extractFacts(input: Normalized, reader: FactReader): Facts {
  const { lines } = input;
  const found = reader.literals.get()?.scan(lines);
  const { at } = reader;
  const text = new GatedLines(lines, found, at.signatures);
  const errors = readErrors(text, reader.signatures, found?.slice(at.signatures, at.events));
  const errorLine = errors.evidence.oom?.line ?? errors.exception?.line;
  const runs = found && { events: found.slice(at.events, at.nodes), nodes: found.slice(at.nodes, at.phrases), phrases: found.slice(at.phrases) };
  const stage = readStage(text, errorLine, reader.stages, errors.memoryLines, runs);
  const alloc = readAllocation(text);
  const env = readEnvironment(text, reader.knownFlags);

  const facts: Facts = {
    signatures: errors.signatures,
    flags: env.flags,
    evidence: { ...env.evidence, ...alloc.evidence, ...stage.evidence, ...errors.evidence },
  };
  const set = <K extends keyof Facts>(key: K, value: Facts[K] | undefined) => {
    if (value !== undefined) facts[key] = value;
  };
  // A wording any GPU prints ("OutOfMemoryError", "got an OOM") takes the platform the paste shows.
  set('oom', errors.oom === 'gpu' ? platformOom(env.backend) : errors.oom);
  set('primarySignature', errors.primarySignature);
  set('exception', errors.exception);
  set('stage', stage.stage);
  set('node', stage.node);
  for (const key of ['backend', 'gpuVendor', 'gpuName', 'os', 'app', 'install', 'attention', 'dynamicVram', 'vramGb', 'ramGb', 'comfyuiVersion', 'torchVersion', 'videoWorkflow', 'launchArgs', 'rejectedFlags'] as const) {
    set(key, env[key] as never);
  }
  if (facts.gpuName && BEFORE_TURING.test(facts.gpuName)) facts.gpuBeforeTuring = true;
  for (const key of ['requestedGb', 'totalGb', 'freeGb', 'allocatedGb', 'reservedUnallocatedGb'] as const) set(key, alloc[key]);
  // A device cannot have more free than it has: such a figure (ZLUDA and some drivers print them)
  // is garbage and must not argue that memory was plentiful.
  if (facts.freeGb !== undefined && facts.totalGb !== undefined && facts.freeGb > facts.totalGb) {
    delete facts.freeGb;
    delete facts.evidence.freeGb;
  }
  if (errors.recoveredVaeTiling) facts.recoveredVaeTiling = true;
  const model = readModelFamily(lines, reader.models);
  if (model) {
    facts.modelFamily = model.family;
    facts.evidence.modelFamily = { line: model.line, text: lines[model.line]!, source: 'model load line', strength: 1 };
  }

  // An attached /system_stats or workflow says more reliably what the log only hints at.
  const json = readJsonFacts(lines);
  for (const [key, value] of Object.entries(json)) {
    if (key === 'evidence') continue;
    if (key === 'flags') facts.flags = [...new Set([...facts.flags, ...(value as string[])])].sort();
    else (facts as unknown as Record<string, unknown>)[key] = value;
  }
  Object.assign(facts.evidence, json.evidence);
  if (facts.workflowWidth && facts.workflowHeight) {
    // About two thirds of each side (under half the pixels), on the 64-pixel grid latents use.
    const smaller = (side: number) => Math.max(512, Math.floor((side * 2) / 3 / 64) * 64);
    facts.suggestedWidth = Math.min(facts.workflowWidth, smaller(facts.workflowWidth));
    facts.suggestedHeight = Math.min(facts.workflowHeight, smaller(facts.workflowHeight));
  }
  // Video models take 4n+1 frames.
  if (facts.workflowFrames && facts.workflowFrames > 8) facts.suggestedFrames = Math.floor((facts.workflowFrames - 1) / 8) * 4 + 1;

  // The allocator's own total is the best VRAM figure when the banner is missing.
  if (facts.vramGb === undefined && facts.totalGb !== undefined && facts.oom && facts.oom !== 'ram' && facts.oom !== 'mps') {
    facts.vramGb = round(facts.totalGb);
  }
  if (facts.totalGb && facts.freeGb !== undefined) facts.freeShare = round(facts.freeGb / facts.totalGb);
  if (facts.requestedGb !== undefined && facts.freeGb !== undefined) facts.requestFitsFree = facts.requestedGb < facts.freeGb;
  return facts;
}

const LOADS = /Requested to load (\w+)/;

/** The first diffusion model ComfyUI loads that kb/models.yaml knows (text encoders and VAEs are not families). */
function readModelFamily(lines: readonly string[], models: ReadonlyMap<string, string>): { family: string; line: number } | undefined {
  for (const [line, text] of lines.entries()) {
    if (!text.includes('Requested to load')) continue;
    const family = models.get(LOADS.exec(text)?.[1] ?? '');
    if (family) return { family, line };
  }
  return undefined;
}

/** NVIDIA cards from before RTX 20 (Turing): GTX 10 and 9, Pascal and Maxwell workstation cards, TITAN X/Xp. */
const BEFORE_TURING = /\bGTX\s?(?:10[5-8]0|9[5-8]0|TITAN X)|\bTITAN Xp?\b|\bQuadro (?:P|M)\d|\bTesla (?:P|M)\d{1,3}\b/i;
