// What a conversation's records say about its steps, as counts: the store adds them up in the
// transaction that writes the records (so learning and stats never read the event log), and the
// adaptive bench adds them up the same way in memory.
import type { CaseState, PlanRef, Record } from '../conversation/machine.ts';

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
