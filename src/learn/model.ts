// From recorded outcomes to a step order, as a pure function: counts in, order out.
//
// Each step's chance to fix an entry's failure is a Beta distribution: the kb's place for it is
// the prior, the entry's answers over every other setup come next, and the answers of this setup
// (VRAM tier, OS, backend, dynamic VRAM) last, so small samples shrink toward what is known more
// broadly. Thompson sampling draws one chance per step from a seed (pulled halfway back toward its
// expected value, POLICY.exploration) and orders by chance per unit of effort: a step that is
// rarely offered still gets drawn high now and then and can prove itself, and the same seed over
// the same counts always gives the same order.
import type { PlanOrder } from '../records/case.ts';
import type { Step } from '../kb/schema.ts';
import { POLICY, type AdaptiveMode, type AdaptiveSetting } from './policy.ts';
import { beta, seeded } from './random.ts';

/** What users answered to one step of one entry in one setup (a row of step_outcomes). */
export interface Counts {
  offered: number;
  fixed: number;
  assumed: number;
  failed: number;
  notApplied: number;
  movedOn: number;
  skipped: number;
}

export interface Evidence extends Counts {
  context: string;
  step: string;
}

/** A moderator's pin: the step keeps this place (0-based), or its kb place when none is given. */
export interface Pin {
  step: string;
  place?: number;
}

export interface OrderInput {
  /** The entry's steps in the kb's order, with their effort. */
  kbSteps: { id: string; effort: Step['effort'] }[];
  /** The entry's counts, every setup. */
  evidence: Evidence[];
  /** The setup to order for; without it, the entry as a whole. */
  context?: string;
  pins?: Pin[];
  /** Draws for Thompson sampling; without it, each step's expected chance (what stats show). */
  rand?: () => number;
}

export interface StepEstimate {
  step: string;
  kbPlace: number;
  /** The kb's prior belief that it fixes the failure. */
  prior: number;
  /** Answers counted for it (fixed, assumed, failed, moved on, could not apply, skipped), in the setup and in the whole entry. */
  answers: number;
  entryAnswers: number;
  /** Expected chance to fix, after the evidence. */
  chance: number;
  /** The chance drawn for this order (equal to `chance` without a draw). */
  drawn: number;
  /** Why the step is where it is when the evidence did not put it there. */
  held?: 'rule' | 'pin';
}

const answers = (c: Counts) => c.fixed + c.assumed + c.failed + c.notApplied + c.movedOn + c.skipped;
const credit = (c: Counts) => c.fixed * POLICY.credit.fixed + c.movedOn * POLICY.credit.movedOn + c.assumed * POLICY.credit.assumed;
const ZERO: Counts = { offered: 0, fixed: 0, assumed: 0, failed: 0, notApplied: 0, movedOn: 0, skipped: 0 };

export function sum(rows: Counts[]): Counts {
  const out = { ...ZERO };
  for (const r of rows) for (const k of Object.keys(ZERO) as (keyof Counts)[]) out[k] += r[k];
  return out;
}

export const priorChance = (kbPlace: number) => Math.max(POLICY.prior.floor, POLICY.prior.top * POLICY.prior.decay ** kbPlace);

/** Orders an entry's steps for one setup; see the file's head for how. */
export function orderSteps(input: OrderInput): { steps: string[]; estimates: StepEstimate[] } {
  const pins = new Map((input.pins ?? []).map((p) => [p.step, p]));
  const n = input.kbSteps.length;
  const estimates = input.kbSteps.map(({ id, effort }, kbPlace): StepEstimate & { key: number; place?: number } => {
    const rows = input.evidence.filter((e) => e.step === id);
    const mine = sum(input.context === undefined ? rows : rows.filter((e) => e.context === input.context));
    const rest = input.context === undefined ? ZERO : sum(rows.filter((e) => e.context !== input.context));
    const prior = priorChance(kbPlace);
    // The entry over every other setup: the kb's prior plus their answers.
    const a0 = POLICY.prior.strength * prior + credit(rest);
    const b0 = POLICY.prior.strength * (1 - prior) + answers(rest) - credit(rest);
    // This setup: that estimate, worth at most contextStrength answers, plus its own.
    const k = input.context === undefined ? a0 + b0 : Math.min(POLICY.contextStrength, a0 + b0);
    const a = (k * a0) / (a0 + b0) + credit(mine);
    const b = (k * b0) / (a0 + b0) + answers(mine) - credit(mine);
    const chance = a / (a + b);
    const drawn = input.rand ? chance + POLICY.exploration * (beta(a, b, input.rand) - chance) : chance;
    const pin = pins.get(id);
    const held = pin ? 'pin' : POLICY.fixedPlace.includes(id) ? 'rule' : undefined;
    return {
      step: id,
      kbPlace,
      prior,
      answers: answers(mine),
      entryAnswers: answers(mine) + answers(rest),
      chance,
      drawn,
      key: drawn / POLICY.effort[effort],
      ...(held ? { held } : {}),
      ...(held ? { place: Math.min(n - 1, Math.max(0, pin?.place ?? kbPlace)) } : {}),
    };
  });
  // Held steps take their places first (a later pin for a taken place goes to the nearest free
  // one after it); the others fill the free places by chance per effort, ties in the kb's order.
  const slots: (string | undefined)[] = new Array(n).fill(undefined);
  for (const e of estimates.filter((x) => x.place !== undefined)) {
    let at = e.place!;
    while (slots[at] !== undefined) at = (at + 1) % n;
    slots[at] = e.step;
  }
  const free = estimates.filter((x) => x.place === undefined).sort((x, y) => y.key - x.key || x.kbPlace - y.kbPlace);
  let next = 0;
  for (let i = 0; i < n; i++) if (slots[i] === undefined) slots[i] = free[next++]!.step;
  return { steps: slots as string[], estimates: estimates.map(({ key: _key, place: _place, ...e }) => e) };
}

/** The mode an entry runs in: `auto` is suggest until enough users confirmed a fix, then on. */
export function modeFor(setting: AdaptiveSetting, confirmed: number): AdaptiveMode {
  if (setting !== 'auto') return setting;
  return confirmed >= POLICY.autoOnConfirmed ? 'on' : 'suggest';
}

/**
 * The order one case gets, and how it was chosen: the kb's while learning is off or only
 * suggests (the learned order kept beside it when it differs), the drawn one when it is on.
 */
export function chooseOrder(
  setting: AdaptiveSetting,
  input: Omit<OrderInput, 'rand' | 'context'> & { context: string; seed: number },
): { steps: string[]; order: PlanOrder } {
  const kb = input.kbSteps.map((s) => s.id);
  const { context, seed } = input;
  const mode = modeFor(setting, sum(input.evidence).fixed);
  if (mode === 'off' || kb.length < 2) return { steps: kb, order: { context, by: 'kb', seed } };
  const learned = orderSteps({ ...input, rand: seeded(seed) }).steps;
  if (mode === 'on') return { steps: learned, order: { context, by: 'learned', seed } };
  const same = learned.every((s, i) => s === kb[i]);
  return { steps: kb, order: { context, by: 'kb', seed, ...(same ? {} : { suggested: learned }) } };
}
