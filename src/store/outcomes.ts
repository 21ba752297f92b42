// The step counters of migration 008, kept in step with the events: CaseStore adds a transition's
// outcomes (src/records/outcomes.ts) in the transaction that writes its records.
import { sql } from 'kysely';
import type { Outcome, OutcomeKind } from '../records/outcomes.ts';
import { DAY_MS } from './archive.ts';
import type { Executor } from './sql.ts';

/** Which column each kind of outcome adds to: the learner's counters by setup, and the stats' daily funnel. */
const COLUMNS: Record<OutcomeKind, { learned?: string; daily?: string }> = {
  offered: { learned: 'offered', daily: 'offered' },
  tried: { daily: 'tried' },
  fixed: { learned: 'fixed', daily: 'fixed' },
  assumed: { learned: 'assumed', daily: 'assumed' },
  failed: { learned: 'failed' },
  notApplied: { learned: 'not_applied' },
  movedOn: { learned: 'moved_on', daily: 'moved_on' },
  skipped: { learned: 'skipped' },
};

/** What to take away from the counters and what to add, to turn `before` into `after`. */
export function netOutcomes(before: Outcome[], after: Outcome[]): [Outcome[], number][] {
  const key = (o: Outcome) => JSON.stringify([o.entry, o.context, o.step, o.kind]);
  const left = new Map<string, Outcome[]>();
  for (const o of before) left.set(key(o), [...(left.get(key(o)) ?? []), o]);
  const added = after.filter((o) => !left.get(key(o))?.pop());
  return [
    [[...left.values()].flat(), -1],
    [added, 1],
  ];
}

/** Adds each outcome's count to its columns; `by` -1 takes them away again (a correction). */
export async function addOutcomes(tx: Executor, caseId: string, outcomes: Outcome[], by = 1): Promise<void> {
  for (const o of outcomes) {
    const { learned, daily } = COLUMNS[o.kind];
    if (learned) {
      const column = sql.ref(learned);
      await sql`INSERT INTO step_outcomes (entry, context, step, ${column}) VALUES (${o.entry}, ${o.context}, ${o.step}, ${by})
        ON CONFLICT (entry, context, step) DO UPDATE SET ${column} = step_outcomes.${column} + ${by}`.execute(tx);
    }
    if (daily) {
      // The case's own day, platform and server, so the funnel is scoped and dated like the rest of stats.
      const column = sql.ref(daily);
      await sql`INSERT INTO step_days (day, platform, server, entry, step, ${column})
        SELECT created_at / ${sql.lit(DAY_MS)}, platform, COALESCE(server, ''), ${o.entry}, ${o.step}, ${by} FROM cases WHERE id = ${caseId}
        ON CONFLICT (day, platform, server, entry, step) DO UPDATE SET ${column} = step_days.${column} + ${by}`.execute(tx);
    }
  }
}
