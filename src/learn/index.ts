// Learning which fix works: the one way in. The planner asks it for an entry's step order, the
// conversation for what to tell a user about a step, stats for the learned order and its evidence,
// moderators for pins. It reads the counters the store writes with the events (migration 008),
// never the event log; everything it decides is done by the pure functions of model.ts.
import type { Facts } from '../classify/facts/types.ts';
import type { PlanOrder } from '../records/case.ts';
import type { Kb } from '../kb/load.ts';
import type { Entry } from '../kb/schema.ts';
import { sql } from 'kysely';
import { all, run, type Sql } from '../store/sql.ts';
import { learningContext } from './context.ts';
import { chooseOrder, modeFor, orderSteps, sum, type Counts, type Evidence, type Pin, type StepEstimate } from './model.ts';
import { POLICY, type AdaptiveMode, type AdaptiveSetting } from './policy.ts';

export { learningContext } from './context.ts';
export { chooseOrder, orderSteps, modeFor, priorChance, sum, type Counts, type Evidence, type Pin, type StepEstimate } from './model.ts';
export { outcomesOf, type Outcome, type OutcomeKind } from '../records/outcomes.ts';
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
  constructor(
    private readonly store: Sql,
    private readonly kb: Pick<Kb, 'steps' | 'entries'>,
    readonly setting: AdaptiveSetting = 'auto',
  ) {}

  /** One entry's outcomes, or (no entry) every entry's, each row naming its entry. */
  private evidence(entry?: string): Promise<(Evidence & { entry: string })[]> {
    const where = entry === undefined ? sql`` : sql` WHERE entry = ${entry}`;
    return all(
      this.store.db,
      sql<Evidence & { entry: string }>`SELECT entry, context, step, offered, fixed, assumed, failed, not_applied AS "notApplied", moved_on AS "movedOn", skipped FROM step_outcomes${where}`,
    );
  }

  /** One entry's pins, or (no entry) every entry's, each naming its entry. */
  private async pins(entry?: string): Promise<(Pin & { entry: string })[]> {
    const where = entry === undefined ? sql`` : sql` WHERE entry = ${entry}`;
    const rows = await all(this.store.db, sql<{ entry: string; step: string; place: number | null }>`SELECT entry, step, place FROM step_pins${where}`);
    return rows.map((p) => ({ entry: p.entry, step: p.step, ...(p.place !== null ? { place: p.place } : {}) }));
  }

  private kbSteps(entry: Entry) {
    return entry.steps.map((id) => ({ id, effort: this.kb.steps.get(id)?.effort ?? 'medium' }));
  }

  /**
   * The order to give one case: the entry's steps (the planner then drops those that cannot help
   * this user), and how it was chosen, to be stored with the case. `seed` makes it reproducible.
   */
  async order(entry: Entry, facts: Facts, seed: number): Promise<{ steps: string[]; order: PlanOrder }> {
    const [evidence, pins] = await Promise.all([this.evidence(entry.id), this.pins(entry.id)]);
    return chooseOrder(this.setting, { kbSteps: this.kbSteps(entry), evidence, pins, context: learningContext(facts), seed });
  }

  /** Per step of an entry, what users reported, every setup together; and whether confirmed fixes reorder it. */
  async record(entryId: string): Promise<StepsRecord> {
    return this.recorded(entryId, await this.evidence(entryId));
  }

  private recorded(entryId: string, evidence: Evidence[]): StepsRecord {
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
  async learnedOrders(): Promise<LearnedOrder[]> {
    // Two reads for every entry at once: a query per entry costs a round trip each on a server.
    const [allEvidence, allPins] = await Promise.all([this.evidence(), this.pins()]);
    const entries = this.kb.entries.filter((e) => e.steps.length > 1 && allEvidence.some((r) => r.entry === e.id));
    return entries.map((entry) => {
      const evidence = allEvidence.filter((r) => r.entry === entry.id);
      const pins = allPins.filter((p) => p.entry === entry.id);
      const { steps, estimates } = orderSteps({ kbSteps: this.kbSteps(entry), evidence, pins });
      const records = this.recorded(entry.id, evidence).steps;
      const byStep = new Map(estimates.map((e) => [e.step, { ...e, ...(records.get(e.step) ?? { tried: 0, fixed: 0, assumed: 0 }) }]));
      const confirmed = sum(evidence).fixed;
      return { entry: entry.id, mode: modeFor(this.setting, confirmed), confirmed, kb: entry.steps, learned: steps, steps: steps.map((s) => byStep.get(s)!) };
    });
  }

  /** A moderator pins a step: at its kb place, or at `place` (1-based). */
  async pin(entryId: string, stepId: string, by: string, place?: number, at = Date.now()): Promise<void> {
    const entry = this.kb.entries.find((e) => e.id === entryId);
    if (!entry) throw new Error(`no kb entry "${entryId}"`);
    if (!entry.steps.includes(stepId)) throw new Error(`entry ${entryId} has no step "${stepId}" (it has: ${entry.steps.join(', ')})`);
    if (place !== undefined && !(Number.isInteger(place) && place >= 1 && place <= entry.steps.length)) throw new Error(`the place must be 1 to ${entry.steps.length}`);
    await sql`INSERT INTO step_pins (entry, step, place, pinned_by, pinned_at) VALUES (${entryId}, ${stepId}, ${place === undefined ? null : place - 1}, ${by}, ${at})
      ON CONFLICT (entry, step) DO UPDATE SET place = excluded.place, pinned_by = excluded.pinned_by, pinned_at = excluded.pinned_at`.execute(this.store.db);
  }

  async unpin(entryId: string, stepId: string): Promise<boolean> {
    return (await run(this.store.db, sql`DELETE FROM step_pins WHERE entry = ${entryId} AND step = ${stepId}`)) > 0;
  }
}
