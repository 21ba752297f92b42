// The step counters of migration 008, kept in step with the events: CaseStore adds a transition's
// outcomes (src/learn/outcomes.ts) in the transaction that writes its records.
import type Database from 'better-sqlite3';
import type { Outcome, OutcomeKind } from '../learn/outcomes.ts';
import { DAY_MS } from './archive.ts';
import type { Db } from './db.ts';

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

type Statement = Database.Statement<unknown[]>;

export class OutcomeCounters {
  private readonly learned = new Map<OutcomeKind, Statement>();
  private readonly daily = new Map<OutcomeKind, Statement>();

  constructor(db: Db) {
    for (const [kind, c] of Object.entries(COLUMNS) as [OutcomeKind, (typeof COLUMNS)[OutcomeKind]][]) {
      if (c.learned) {
        this.learned.set(kind, db.prepare(`INSERT INTO step_outcomes (entry, context, step, ${c.learned}) VALUES (?, ?, ?, 1) ON CONFLICT DO UPDATE SET ${c.learned} = ${c.learned} + 1`));
      }
      if (c.daily) {
        // The case's own day, platform and server, so the funnel is scoped and dated like the rest of stats.
        this.daily.set(
          kind,
          db.prepare(
            `INSERT INTO step_days (day, platform, server, entry, step, ${c.daily}) SELECT created_at / ${DAY_MS}, platform, COALESCE(server, ''), ?, ?, 1 FROM cases WHERE id = ?
             ON CONFLICT DO UPDATE SET ${c.daily} = ${c.daily} + 1`,
          ),
        );
      }
    }
  }

  add(caseId: string, outcomes: Outcome[]): void {
    for (const o of outcomes) {
      this.learned.get(o.kind)?.run(o.entry, o.context, o.step);
      this.daily.get(o.kind)?.run(o.entry, o.step, caseId);
    }
  }
}
