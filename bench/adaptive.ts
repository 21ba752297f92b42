// Adaptive bench (`npm run bench -- adaptive`): does learning the step order help people, and is it
// safe where the kb's order is already right? Simulated users with hidden true fix rates per step,
// which differ by VRAM tier and OS and are the bench's own (not derived from the kb order), and
// limited patience, go through the real state machine; their answers are counted exactly as the
// store counts them (outcomesOf) and the real learner (chooseOrder, COMFYOOM_ADAPTIVE unset) orders
// the next case from those counts. The same users, with the same hidden answers, meet the kb order
// in the same run: that is the baseline.
//
// Per case the figures are expected values over the hidden rates (not one draw), so the two orders
// are compared without luck: steps (offered until a fix, or until the user gives up or the steps
// run out), the chance of giving up, and regret, the steps above the best fixed order for the
// user's setup. Reported as means over the first 100, 1,000 and 10,000 cases.
import { step, type CaseState, type Command, type PlanRef, type Record as Rec } from '../src/conversation/machine.ts';
import { chooseOrder, learningContext, outcomesOf, seedOf, type Evidence } from '../src/learn/index.ts';
import { seeded } from '../src/learn/random.ts';
import type { Step } from '../src/kb/schema.ts';
import { type BenchResult, fmtRatio, round, table } from './lib/measure.ts';

const CHECKPOINTS = [100, 1_000, 10_000];
const CASES = CHECKPOINTS.at(-1)!;

const TIERS = [
  { name: '<8 GB', vramGb: 6, share: 0.4 },
  { name: '8-16 GB', vramGb: 12, share: 0.4 },
  { name: '24+ GB', vramGb: 24, share: 0.2 },
] as const;
const SYSTEMS = [
  { os: 'windows', share: 0.7 },
  { os: 'linux', share: 0.3 },
] as const;
type Tier = (typeof TIERS)[number]['name'];
type Os = (typeof SYSTEMS)[number]['os'];

interface BenchStep {
  id: string;
  effort: Step['effort'];
  /** The hidden chance that the step fixes a user's failure, by setup. */
  fixes: (tier: Tier, os: Os) => number;
  /** The hidden chance a user cannot carry it out at all. */
  cannotApply: number;
}

interface Scenario {
  name: string;
  /** Whether the kb's order is the best for most users (the bench checks it from the hidden rates). */
  kbRight: boolean;
  steps: BenchStep[];
}

const flat = (p: number) => () => p;
/** The kb's last resorts, which keep their place in every order. */
const TAIL: BenchStep[] = [
  { id: 'update-or-rollback', effort: 'high', fixes: flat(0.04), cannotApply: 0.1 },
  { id: 'share-full-log', effort: 'low', fixes: flat(0), cannotApply: 0 },
];

const SCENARIOS: Scenario[] = [
  {
    // VAE decode: the kb leads with a step that rarely helps; tiling helps most, most on small cards.
    name: 'vae decode (kb order wrong)',
    kbRight: false,
    steps: [
      { id: 'free-memory-between-runs', effort: 'low', fixes: (t) => (t === '24+ GB' ? 0.2 : 0.06), cannotApply: 0.05 },
      { id: 'reserve-vram', effort: 'low', fixes: flat(0.08), cannotApply: 0.05 },
      { id: 'tiled-vae-decode', effort: 'low', fixes: (t) => (t === '<8 GB' ? 0.6 : t === '8-16 GB' ? 0.5 : 0.3), cannotApply: 0.05 },
      { id: 'vae-precision-or-cpu', effort: 'medium', fixes: (t) => (t === '<8 GB' ? 0.35 : 0.2), cannotApply: 0.15 },
      { id: 'reduce-workload', effort: 'low', fixes: flat(0.25), cannotApply: 0.05 },
      ...TAIL,
    ],
  },
  {
    // Sampling: the kb's order suits Windows; on Linux the page-file-free setup needs other steps first.
    name: 'sampling (kb order wrong on Linux and small cards)',
    kbRight: false,
    steps: [
      { id: 'reduce-workload', effort: 'low', fixes: (_tier, os) => (os === 'windows' ? 0.3 : 0.1), cannotApply: 0.05 },
      { id: 'attention-and-smart-memory', effort: 'medium', fixes: flat(0.12), cannotApply: 0.1 },
      { id: 'lowvram', effort: 'low', fixes: (t, os) => (t === '<8 GB' ? 0.45 : os === 'linux' ? 0.3 : 0.1), cannotApply: 0.05 },
      { id: 'close-other-gpu-apps', effort: 'low', fixes: (_tier, os) => (os === 'linux' ? 0.4 : 0.08), cannotApply: 0.05 },
      { id: 'smaller-weights', effort: 'medium', fixes: flat(0.2), cannotApply: 0.1 },
      ...TAIL,
    ],
  },
  {
    // RAM: the kb's order is the best one, in every setup.
    name: 'system RAM (kb order right)',
    kbRight: true,
    steps: [
      { id: 'ram-reduce-use', effort: 'low', fixes: (t) => (t === '<8 GB' ? 0.45 : 0.4), cannotApply: 0.05 },
      { id: 'pagefile-increase', effort: 'low', fixes: (_tier, os) => (os === 'windows' ? 0.3 : 0.2), cannotApply: 0.1 },
      { id: 'disable-pinned-memory', effort: 'low', fixes: flat(0.15), cannotApply: 0.05 },
      { id: 'smaller-weights', effort: 'medium', fixes: flat(0.1), cannotApply: 0.1 },
      ...TAIL,
    ],
  },
  {
    // Model load: the kb's order is the best one, with rates close together (the hardest to keep).
    name: 'model load (kb order right, close rates)',
    kbRight: true,
    steps: [
      { id: 'smaller-weights', effort: 'low', fixes: (t) => (t === '24+ GB' ? 0.3 : 0.34), cannotApply: 0.05 },
      { id: 'lowvram', effort: 'low', fixes: (t) => (t === '24+ GB' ? 0.2 : 0.26), cannotApply: 0.05 },
      { id: 'close-other-gpu-apps', effort: 'low', fixes: flat(0.16), cannotApply: 0.05 },
      { id: 'text-encoder-smaller', effort: 'low', fixes: flat(0.12), cannotApply: 0.05 },
      { id: 'reserve-vram', effort: 'low', fixes: flat(0.08), cannotApply: 0.05 },
      ...TAIL,
    ],
  },
];

/** The chance a step fixes this user's failure, counting the chance they cannot carry it out. */
const chance = (s: BenchStep, tier: Tier, os: Os) => (1 - s.cannotApply) * s.fixes(tier, os);

interface User {
  tier: (typeof TIERS)[number];
  os: Os;
  /** Steps they try before giving up. */
  patience: number;
  /** Their hidden answer to each step: fixed it, could not apply it, or still failing. */
  answer: Map<string, 'fixed' | 'cannot' | 'failed'>;
}

function pick<T extends { share: number }>(items: readonly T[], x: number): T {
  let acc = 0;
  for (const it of items) if (x < (acc += it.share)) return it;
  return items.at(-1)!;
}

/** The i-th user of a scenario: the same for both orders. */
function user(sc: Scenario, i: number): User {
  const r = seeded(seedOf(`${sc.name}:${i}`));
  const tier = pick(TIERS, r());
  const os = pick(SYSTEMS, r()).os;
  const patience = 2 + Math.floor(r() * 5); // 2 to 6 steps
  const answer = new Map<string, 'fixed' | 'cannot' | 'failed'>();
  for (const s of sc.steps) answer.set(s.id, r() < s.cannotApply ? 'cannot' : r() < s.fixes(tier.name, os) ? 'fixed' : 'failed');
  return { tier, os, patience, answer };
}

/** Expected steps offered and chance of giving up, for an order, over the hidden rates. */
function expected(sc: Scenario, order: string[], u: User): { steps: number; gaveUp: number } {
  let stillFailing = 1;
  let steps = 0;
  for (const id of order.slice(0, u.patience)) {
    steps += stillFailing;
    stillFailing *= 1 - chance(sc.steps.find((s) => s.id === id)!, u.tier.name, u.os);
  }
  return { steps, gaveUp: stillFailing };
}

/** The best fixed order for a user's setup: by chance to fix, highest first (every step costs one step). */
const bestOrder = (sc: Scenario, u: User) => [...sc.steps].sort((a, b) => chance(b, u.tier.name, u.os) - chance(a, u.tier.name, u.os)).map((s) => s.id);

/** Plays one case through the machine with the user's hidden answers; returns the records and state of each transition. */
function converse(plan: PlanRef, u: User, caseId: string): { records: Rec[]; state: CaseState }[] {
  const out: { records: Rec[]; state: CaseState }[] = [];
  const apply = (s: CaseState | undefined, c: Command) => {
    const t = step(s, c);
    out.push({ records: t.records, state: t.state! });
    return t.state!;
  };
  let at = 0;
  const who = () => ({ at: ++at, actor: 'u', moderator: false });
  let s = apply(undefined, { kind: 'open', at, caseId, owner: 'u', lang: 'en', plan });
  for (let tried = 0; s.status === 'open'; tried++) {
    if (tried === u.patience) {
      apply(s, { kind: 'action', offer: s.offer, action: 'stop', ...who() });
      break;
    }
    const answer = u.answer.get(s.plan.steps[s.index]!)!;
    if (answer === 'fixed') s = apply(s, { kind: 'action', offer: s.offer, action: 'worked', ...who() });
    else {
      s = apply(s, { kind: 'action', offer: s.offer, action: 'failed', ...who() });
      s = apply(s, { kind: 'reason', offer: s.offer, reason: answer === 'cannot' ? 'could_not_apply' : 'same', ...who() });
    }
  }
  return out;
}

interface Tally {
  steps: number;
  gaveUp: number;
  regret: number;
}

function run(sc: Scenario, adaptive: boolean): { at: Tally[]; learnedOrders: Map<string, string[]> } {
  const kbSteps = sc.steps.map((s) => ({ id: s.id, effort: s.effort }));
  const counts = new Map<string, Evidence>();
  const tally: Tally = { steps: 0, gaveUp: 0, regret: 0 };
  const at: Tally[] = [];
  const learnedOrders = new Map<string, string[]>();
  for (let i = 0; i < CASES; i++) {
    const u = user(sc, i);
    const context = learningContext({ vramGb: u.tier.vramGb, os: u.os, backend: 'cuda' });
    const caseId = `case${i}`;
    const order = adaptive
      ? chooseOrder('auto', { kbSteps, evidence: [...counts.values()], pins: [], context, seed: seedOf(`${caseId}:0`) })
      : { steps: kbSteps.map((s) => s.id), order: { context, by: 'kb' as const, seed: 0 } };
    const plan: PlanRef = { entry: sc.name, category: 'oom_gpu_other', steps: order.steps, order: order.order };
    for (const t of converse(plan, u, caseId)) {
      for (const o of outcomesOf(t.records, t.state)) {
        if (o.kind === 'tried') continue;
        const key = `${o.context}|${o.step}`;
        const row = counts.get(key) ?? { context: o.context, step: o.step, offered: 0, fixed: 0, assumed: 0, failed: 0, notApplied: 0, movedOn: 0, skipped: 0 };
        row[o.kind]++;
        counts.set(key, row);
      }
    }
    const mine = expected(sc, order.steps, u);
    tally.steps += mine.steps;
    tally.gaveUp += mine.gaveUp;
    tally.regret += mine.steps - expected(sc, bestOrder(sc, u), u).steps;
    if (CHECKPOINTS.includes(i + 1)) at.push({ steps: tally.steps / (i + 1), gaveUp: tally.gaveUp / (i + 1), regret: tally.regret / (i + 1) });
    learnedOrders.set(context, order.steps);
  }
  return { at, learnedOrders };
}

/** Whether the kb order is the best fixed order for the setups most users have (a check on the bench's own worlds). */
function kbIsBest(sc: Scenario): boolean {
  const kb = sc.steps.map((s) => s.id);
  let worse = 0;
  let share = 0;
  for (const tier of TIERS)
    for (const sys of SYSTEMS) {
      const u: User = { tier, os: sys.os, patience: 6, answer: new Map() };
      if (expected(sc, kb, u).steps > expected(sc, bestOrder(sc, u), u).steps + 1e-9) worse += tier.share * sys.share;
      share += tier.share * sys.share;
    }
  return worse / share < 0.05;
}

export async function benchAdaptive(): Promise<BenchResult> {
  const failures: string[] = [];
  const rows: string[][] = [];
  const summary: Record<string, unknown>[] = [];
  for (const sc of SCENARIOS) {
    if (kbIsBest(sc) !== sc.kbRight) failures.push(`${sc.name}: the hidden rates ${sc.kbRight ? 'do not make' : 'make'} the kb order the best one`);
    const kb = run(sc, false);
    const learned = run(sc, true);
    CHECKPOINTS.forEach((n, k) => {
      const b = kb.at[k]!;
      const a = learned.at[k]!;
      const ratio = a.steps / b.steps;
      rows.push([
        k === 0 ? sc.name : '',
        n.toLocaleString('en'),
        b.steps.toFixed(3),
        a.steps.toFixed(3),
        `${ratio.toFixed(3)}x`,
        `${(b.gaveUp * 100).toFixed(1)}%`,
        `${(a.gaveUp * 100).toFixed(1)}%`,
        b.regret.toFixed(3),
        a.regret.toFixed(3),
      ]);
      summary.push({ scenario: sc.name, kbRight: sc.kbRight, cases: n, kb: roundAll(b), adaptive: roundAll(a), ratio: round(ratio) });
      if (n === 100 && ratio > 1.05) failures.push(`${sc.name}: after ${n} cases the adaptive order needs ${fmtRatio(ratio)} the kb order's steps (at most 1.05x)`);
      if (n >= 1_000 && sc.kbRight && ratio > 1.02) failures.push(`${sc.name}: after ${n} cases the adaptive order needs ${fmtRatio(ratio)} the kb order's steps where the kb order is right (at most 1.02x)`);
      if (n >= 1_000 && !sc.kbRight && ratio >= 1) failures.push(`${sc.name}: after ${n} cases the adaptive order needs ${fmtRatio(ratio)} the kb order's steps where the kb order is wrong (must be fewer)`);
    });
  }
  console.log(`\nadaptive — ${CASES.toLocaleString('en')} simulated users per entry, hidden fix rates by VRAM tier and OS, patience 2-6 steps; the kb order and the learned one (COMFYOOM_ADAPTIVE unset) meet the same users`);
  console.log('steps: expected steps offered per case, to a fix or until the user gives up; gave up: expected share; regret: steps above the best fixed order for the user\'s setup; means over the first N cases');
  console.log(table(['entry', 'cases', 'steps kb', 'steps learned', 'learned/kb', 'gave up kb', 'gave up learned', 'regret kb', 'regret learned'], rows));
  for (const f of failures) console.log(`FAIL ${f}`);
  return { name: 'adaptive', failures, summary: { bench: 'adaptive', cases: CASES, checkpoints: CHECKPOINTS, results: summary, ok: failures.length === 0, failures } };
}

const roundAll = (t: Tally) => ({ steps: round(t.steps), gaveUp: round(t.gaveUp), regret: round(t.regret) });
