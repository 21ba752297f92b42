// Whole conversations through the real state machine, seeded, for tests that fill a store: every
// status, questions answered and left open, plans switched by a new log, unrecognized errors.
import { step, type CaseState, type Command, type PlanRef, type Record } from '../../src/conversation/machine.ts';
import type { Kb } from '../../src/kb/load.ts';
import type { CaseStore, NewCase } from '../../src/store/cases.ts';
import { seeded } from '../../src/learn/random.ts';

export type Rng = () => number;

/** Seeded: the same cases on every run. */
export const rng: (seed: number) => Rng = seeded;

const PLANS: PlanRef[] = [
  { entry: 'gpu-oom-sampling', category: 'oom_gpu_sampling', steps: ['reduce-workload', 'reserve-vram', 'lowvram'] },
  { entry: 'gpu-oom-vae', category: 'oom_gpu_vae', steps: ['tiled-vae', 'reduce-workload'] },
  { entry: 'ram-oom', category: 'oom_cpu_ram', steps: ['page-file', 'cache-none', 'reduce-workload'] },
];
const NOT_OOM: PlanRef = { entry: 'shape-mismatch', category: 'not_oom', steps: [] };

export interface Transition {
  records: Record[];
  state: CaseState;
}

/**
 * Plans over every kb entry with steps, the first ones drawn most often (entry i of n appears
 * n - i times), so stats have a long tail of rarely seen entries as a real server's do.
 */
export function kbPlans(kb: Pick<Kb, 'entries'>): PlanRef[] {
  const plans = kb.entries.filter((e) => e.steps.length).map((e) => ({ entry: e.id, category: e.category, steps: e.steps.slice(0, 4) }));
  return plans.flatMap((p, i) => Array.from({ length: plans.length - i }, () => p));
}

/** One case played to an end (or left open, or abandoned), as the transitions the bot stores; its plans drawn from `plans`. */
export function playCase(r: Rng, caseId: string, owner: string, at: number, plans: readonly PlanRef[] = PLANS): Transition[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const out: Transition[] = [];
  let s: CaseState | undefined;
  const apply = (c: Command) => {
    const t = step(s, c);
    s = t.state ?? s;
    if (t.records.length) out.push({ records: t.records, state: s! });
  };
  apply({ kind: 'open', at, caseId, owner, lang: r() < 0.2 ? 'zh' : 'en', plan: pick(plans), ...(r() < 0.3 ? { question: 'stage' as const } : {}) });
  const leaveOpen = r() < 0.1;
  for (let turn = 0; s!.status === 'open' && turn < 12; turn++) {
    if (leaveOpen && turn > 1) return out;
    const who = { at: (at += 60_000 + Math.floor(r() * 600_000)), actor: owner, moderator: false };
    const cur = s!;
    if (cur.awaiting === 'question') apply({ kind: 'clarify', offer: cur.offer, question: 'stage', choice: pick(['sampling', 'vae', 'unknown'] as const), ...(r() < 0.5 ? { typed: true as const } : {}), plan: pick(plans), ...who });
    else if (cur.awaiting === 'reason') apply({ kind: 'reason', offer: cur.offer, reason: pick(['same', 'different', 'could_not_apply'] as const), ...who });
    else if (cur.awaiting === 'log') {
      const plan = r() < 0.3 ? NOT_OOM : pick(plans);
      apply({ kind: 'log', plan, oom: plan !== NOT_OOM, ...who });
    }
    else if (r() < 0.06) apply({ kind: 'tick', at: who.at + 2 * 86_400_000, idleMs: 86_400_000 });
    else apply({ kind: 'action', offer: cur.offer, action: pick(['worked', 'failed', 'failed', 'skip', 'newlog', 'stop'] as const), ...who });
  }
  return out;
}

/** Stores a played case as the engine would: created with its first transition, then one append per transition. */
export async function storeCase(store: CaseStore, c: Omit<NewCase, 'category' | 'entry' | 'kbVersion' | 'fingerprint' | 'recognized'> & Partial<NewCase>, transitions: Transition[]): Promise<void> {
  const [first, ...rest] = transitions;
  const plan = first!.state.plan;
  await store.create({ category: plan.category, entry: plan.entry, kbVersion: 'v', fingerprint: `fp-${plan.entry}`, recognized: true, ...c }, first!.records, first!.state);
  for (const t of rest) await store.append(c.id, t.records, t.state);
}
