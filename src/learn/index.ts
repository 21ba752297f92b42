// Learning which fix works: the one way in. The planner asks it for an entry's step order, the
// conversation for what to tell a user about a step, stats for the learned order and its evidence,
// moderators for pins. It reads the counters the store writes with the events (migration 008),
// never the event log; everything it decides is done by the pure functions of model.ts.
import type { Facts } from '../classify/facts/types.ts';
import type { PlanOrder } from '../conversation/machine.ts';
import type { Kb } from '../kb/load.ts';
import type { Entry } from '../kb/schema.ts';
import type { Db } from '../store/db.ts';
import { learningContext } from './context.ts';
import { chooseOrder, modeFor, orderSteps, sum, type Counts, type Evidence, type Pin, type StepEstimate } from './model.ts';
import { POLICY, type AdaptiveMode, type AdaptiveSetting } from './policy.ts';

export { learningContext } from './context.ts';
export { chooseOrder, orderSteps, modeFor, priorChance, sum, type Counts, type Evidence, type Pin, type StepEstimate } from './model.ts';
export { outcomesOf, type Outcome, type OutcomeKind } from './outcomes.ts';
export { POLICY, type AdaptiveMode, type AdaptiveSetting } from './policy.ts';
export { seedOf } from './random.ts';

/** What a user is told about a step: how many tried it and how many it fixed, once enough did. */
export interface StepRecord {
  tried: number;
  fixed: number;
  assumed: number;
}

/** Per step of an entry, what users reported (every setup together), and whether confirmed fixes reorder the entry's steps. */
export interface StepsRecord {
  mode: AdaptiveMode;
  adapts: boolean;
  confirmed: number;
  steps: Map<string, StepRecord>;
}

/** An entry's learned order as stats show it, with the evidence behind each place. */
export interface LearnedOrder {
  entry: string;
  mode: AdaptiveMode;
  confirmed: number;
  kb: string[];
  learned: string[];
  steps: (StepEstimate & StepRecord)[];
}

/** Parses COMFYOOM_ADAPTIVE: off, suggest or on; unset is auto (suggest until enough confirmed fixes, then on). */
export function parseAdaptive(value: string | undefined): AdaptiveSetting | undefined {
  if (value === undefined || value === '') return 'auto';
  return (['off', 'suggest', 'on', 'auto'] as const).find((m) => m === value.trim().toLowerCase());
}

const tried = (c: Counts) => c.fixed + c.assumed + c.failed + c.movedOn;

export class Learner {
  private readonly rows;
  private readonly pinRows;

  constructor(
    private readonly db: Db,
    private readonly kb: Pick<Kb, 'steps' | 'entries'>,
    readonly setting: AdaptiveSetting = 'auto',
  ) {
    this.rows = db.prepare(
      'SELECT context, step, offered, fixed, assumed, failed, not_applied AS notApplied, moved_on AS movedOn, skipped FROM step_outcomes WHERE entry = ?',
    );
    this.pinRows = db.prepare('SELECT step, place FROM step_pins WHERE entry = ?');
  }

  private evidence(entry: string): Evidence[] {
    return this.rows.all(entry) as Evidence[];
  }

  private pins(entry: string): Pin[] {
    return (this.pinRows.all(entry) as { step: string; place: number | null }[]).map((p) => ({ step: p.step, ...(p.place !== null ? { place: p.place } : {}) }));
  }

  private kbSteps(entry: Entry) {
    return entry.steps.map((id) => ({ id, effort: this.kb.steps.get(id)?.effort ?? 'medium' }));
  }

  /**
   * The order to give one case: the entry's steps (the planner then drops those that cannot help
   * this user), and how it was chosen, to be stored with the case. `seed` makes it reproducible.
   */
  order(entry: Entry, facts: Facts, seed: number): { steps: string[]; order: PlanOrder } {
    return chooseOrder(this.setting, { kbSteps: this.kbSteps(entry), evidence: this.evidence(entry.id), pins: this.pins(entry.id), context: learningContext(facts), seed });
  }

  /** Per step of an entry, what users reported, every setup together; and whether confirmed fixes reorder it. */
  record(entryId: string): StepsRecord {
    const evidence = this.evidence(entryId);
    const confirmed = sum(evidence).fixed;
    const mode = modeFor(this.setting, confirmed);
    const steps = new Map<string, StepRecord>();
    for (const e of evidence) {
      const s = steps.get(e.step) ?? { tried: 0, fixed: 0, assumed: 0 };
      steps.set(e.step, { tried: s.tried + tried(e), fixed: s.fixed + e.fixed, assumed: s.assumed + e.assumed });
    }
    const entry = this.kb.entries.find((e) => e.id === entryId);
    const movable = (entry?.steps ?? []).filter((s) => !POLICY.fixedPlace.includes(s)).length;
    // A fix reorders others' steps only where learning is on or will come on, and there is an order to change.
    return { mode, adapts: this.setting !== 'off' && this.setting !== 'suggest' && movable > 1, confirmed, steps };
  }

  /** Every entry with recorded outcomes: the order learned for it as a whole (expected chances, no draw), with the evidence. */
  learnedOrders(): LearnedOrder[] {
    const withData = new Set(this.db.prepare('SELECT DISTINCT entry FROM step_outcomes').pluck().all() as string[]);
    return this.kb.entries
      .filter((e) => withData.has(e.id) && e.steps.length > 1)
      .map((entry) => {
        const evidence = this.evidence(entry.id);
        const { steps, estimates } = orderSteps({ kbSteps: this.kbSteps(entry), evidence, pins: this.pins(entry.id) });
        const records = this.record(entry.id).steps;
        const byStep = new Map(estimates.map((e) => [e.step, { ...e, ...(records.get(e.step) ?? { tried: 0, fixed: 0, assumed: 0 }) }]));
        const confirmed = sum(evidence).fixed;
        return { entry: entry.id, mode: modeFor(this.setting, confirmed), confirmed, kb: entry.steps, learned: steps, steps: steps.map((s) => byStep.get(s)!) };
      });
  }

  /** A moderator pins a step: at its kb place, or at `place` (1-based). */
  pin(entryId: string, stepId: string, by: string, place?: number, at = Date.now()): void {
    const entry = this.kb.entries.find((e) => e.id === entryId);
    if (!entry) throw new Error(`no kb entry "${entryId}"`);
    if (!entry.steps.includes(stepId)) throw new Error(`entry ${entryId} has no step "${stepId}" (it has: ${entry.steps.join(', ')})`);
    if (place !== undefined && !(Number.isInteger(place) && place >= 1 && place <= entry.steps.length)) throw new Error(`the place must be 1 to ${entry.steps.length}`);
    this.db
      .prepare('INSERT INTO step_pins (entry, step, place, pinned_by, pinned_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET place = excluded.place, pinned_by = excluded.pinned_by, pinned_at = excluded.pinned_at')
      .run(entryId, stepId, place === undefined ? null : place - 1, by, at);
  }

  unpin(entryId: string, stepId: string): boolean {
    return this.db.prepare('DELETE FROM step_pins WHERE entry = ? AND step = ?').run(entryId, stepId).changes > 0;
  }
}
