// What a case's records say about its steps, as counts: the store adds them up in the
// transaction that writes the records (so learning and stats never read the event log), and the
// adaptive bench adds them up the same way in memory. With the records, below both the store and
// the learning that reads the counts.
import { evolve, type CaseState, type PlanRef, type Record } from './case.ts';

/**
 * offered: the step was shown. tried: the user applied it (worked, or still failing after it).
 * fixed / assumed: the case was resolved by it, confirmed by the user or inferred from a log that
 * was no longer an OOM. failed: the same failure after applying it. notApplied: it could not be
 * applied. movedOn: a different memory failure came after it. skipped: the user skipped it.
 */
export type OutcomeKind = 'offered' | 'tried' | 'fixed' | 'assumed' | 'failed' | 'notApplied' | 'movedOn' | 'skipped';

export interface Outcome {
  entry: string;
  /** The setup the plan was ordered for (src/learn/context.ts); '' for plans from before learning. */
  context: string;
  step: string;
  kind: OutcomeKind;
}

/** The kinds one record counts for its step. A "different error" answer waits for the log that follows it. */
function kindsOf(r: Record): { step: string; kinds: OutcomeKind[] } | undefined {
  switch (r.type) {
    case 'offered':
      return { step: r.step, kinds: ['offered'] };
    case 'answered':
      if (r.answer === 'skipped') return { step: r.step, kinds: ['skipped'] };
      if (r.reason === 'could_not_apply') return { step: r.step, kinds: ['notApplied'] };
      return { step: r.step, kinds: r.reason === 'same' ? ['tried', 'failed'] : ['tried'] };
    case 'resolved':
      return { step: r.step, kinds: [r.resolution === 'confirmed' ? 'fixed' : 'assumed'] };
    case 'plan_switched':
      return { step: r.credited, kinds: ['movedOn'] };
    default:
      return undefined;
  }
}

const planOf = (r: Record): PlanRef | undefined => ('plan' in r ? r.plan : undefined);

/**
 * The outcomes of one transition's records, each counted for the plan it happened in. `after` is
 * the state the records lead to: the plan before them is found in its list of plans, one back per
 * plan switch among them.
 */
export function outcomesOf(records: Record[], after: CaseState): Outcome[] {
  const switches = records.filter((r) => r.type === 'plan_switched').length;
  let plan: PlanRef | undefined = records.some((r) => r.type === 'opened') ? undefined : after.plans[after.plans.length - 1 - switches];
  const out: Outcome[] = [];
  for (const r of records) {
    const counted = kindsOf(r);
    if (counted && plan) for (const kind of counted.kinds) out.push({ entry: plan.entry, context: plan.order?.context ?? '', step: counted.step, kind });
    plan = planOf(r) ?? plan;
  }
  return out;
}

/** Records that start another plan: the outcomes before one belong to the plan it leaves. */
const NEW_PLAN = new Set<Record['type']>(['replanned', 'clarified', 'plan_switched']);

/**
 * Every outcome of a case, from all its records: what the counters hold for it once it has been
 * corrected. A plan the user said was not their problem counts for nothing: its steps were tried
 * against another failure. A moderator's relabel counts the case's first diagnosis (every plan
 * before its first switch to a later failure, doubted or not) under the entry named. Without
 * either, this is what outcomesOf counted, transition by transition.
 */
export function caseOutcomes(records: Record[]): Outcome[] {
  const relabel = records.findLast((r) => r.type === 'relabelled')?.entry;
  const out: Outcome[] = [];
  let state: CaseState | undefined;
  let plan: Outcome[] = [];
  let doubted = false;
  let first = true;
  const close = () => {
    if (relabel !== undefined && first) out.push(...plan.map((o) => ({ ...o, entry: relabel })));
    else if (!doubted) out.push(...plan);
    plan = [];
    doubted = false;
  };
  for (const r of records) {
    state = evolve(state, r);
    if (state) plan.push(...outcomesOf([r], state));
    if (r.type === 'misdiagnosed') doubted = true;
    if (NEW_PLAN.has(r.type)) {
      close();
      if (r.type === 'plan_switched') first = false;
    }
  }
  close();
  return out;
}
