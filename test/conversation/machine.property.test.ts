// Model-based property test: random sequences of clicks, answers, logs, answers to the question
// before the first step and clock ticks (stale, doubled, from strangers) must keep the machine's
// invariants.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isClosed, replay, step, type CaseState, type Command, type PlanRef, type Record } from '../../src/conversation/machine.ts';

const plans: PlanRef[] = [
  { entry: 'gpu-oom-sampling', category: 'oom_gpu_sampling', steps: ['a', 'b', 'c', 'd'] },
  { entry: 'gpu-oom-vae', category: 'oom_gpu_vae', steps: ['c', 'e'] },
  { entry: 'ram-oom', category: 'oom_cpu_ram', steps: ['f'] },
  { entry: 'shape-mismatch', category: 'not_oom', steps: ['g'] },
  { entry: 'gpu-oom-other', category: 'oom_gpu_other', steps: ['h', 'a'] },
];
const questions = [undefined, 'vendor', 'stage'] as const;

/** A command described relative to the state it meets, so stale and fresh offers both occur. */
const commandArb = fc.oneof(
  fc.record({ kind: fc.constant('action'), action: fc.constantFrom('worked', 'failed', 'skip', 'newlog', 'stop'), stale: fc.nat(3), who: fc.constantFrom('owner', 'owner', 'owner', 'stranger', 'moderator') }),
  fc.record({ kind: fc.constant('reason'), reason: fc.constantFrom('same', 'different', 'could_not_apply'), stale: fc.nat(3), who: fc.constantFrom('owner', 'owner', 'stranger') }),
  fc.record({ kind: fc.constant('log'), plan: fc.nat(plans.length - 1), question: fc.constantFrom(...questions), notApplied: fc.boolean(), who: fc.constantFrom('owner', 'moderator', 'stranger') }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('clarify'),
      // Mostly the open question, sometimes the other one.
      question: fc.constantFrom('open', 'open', 'vendor', 'stage'),
      choice: fc.constantFrom('nvidia', 'amd', 'sampling', 'vae', 'unknown'),
      typed: fc.boolean(),
      plan: fc.nat(plans.length - 1),
      next: fc.constantFrom(...questions),
      stale: fc.nat(3),
      who: fc.constantFrom('owner', 'owner', 'stranger', 'moderator'),
    }),
  },
  fc.record({ kind: fc.constant('tick'), idle: fc.boolean() }),
);
type Gen = typeof commandArb extends fc.Arbitrary<infer T> ? T : never;

function concretize(g: Gen, s: CaseState, at: number): Command {
  const actor = { at, actor: g.kind !== 'tick' && g.who === 'stranger' ? 'bob' : 'alice', moderator: g.kind !== 'tick' && g.who === 'moderator' };
  const offer = (stale: number) => (stale === 0 || stale === 1 ? s.offer : Math.max(0, s.offer - stale));
  switch (g.kind) {
    case 'action':
      return { kind: 'action', offer: offer(g.stale), action: g.action as never, ...actor };
    case 'reason':
      return { kind: 'reason', offer: offer(g.stale), reason: g.reason as never, ...actor };
    case 'log': {
      const plan = plans[g.plan]!;
      return { kind: 'log', plan, oom: plan.category !== 'not_oom', ...(g.question ? { question: g.question } : {}), ...(g.notApplied ? { notApplied: true as const } : {}), ...actor };
    }
    case 'clarify': {
      const question = g.question === 'open' ? (s.question ?? 'stage') : g.question;
      return {
        kind: 'clarify',
        offer: offer(g.stale),
        question,
        choice: g.choice as never,
        ...(g.typed ? { typed: true as const, node: 'KSampler' } : {}),
        plan: plans[g.plan]!,
        ...(g.next ? { next: g.next } : {}),
        ...actor,
      };
    }
    case 'tick':
      return { kind: 'tick', at: g.idle ? at + 100_000 : at, idleMs: 50_000 };
  }
}

describe('state machine invariants', () => {
  it('hold for any sequence of events', () => {
    fc.assert(
      fc.property(fc.constantFrom(...plans.filter((p) => p.category !== 'not_oom')), fc.constantFrom(...questions), fc.array(commandArb, { maxLength: 40 }), (first, question, gens) => {
        let t = step(undefined, { kind: 'open', at: 0, caseId: 'c', owner: 'alice', lang: 'en', plan: first, ...(question ? { question } : {}) });
        let state = t.state!;
        const records: Record[] = [...t.records];
        let at = 0;
        for (const g of gens) {
          at += 1000;
          const before = state;
          t = step(state, concretize(g, state, at));
          if (isClosed(before)) {
            // Nothing changes a closed case, but "Worked" on the step an idle close left on screen, which resolves it.
            const lateFix = t.records.map((r) => r.type).join() === 'answered,resolved';
            if (lateFix) expect(before).toMatchObject({ status: 'abandoned', awaiting: 'answer' });
            else {
              expect(t.records).toEqual([]);
              expect(t.state).toEqual(before);
            }
          }
          if (g.kind !== 'tick' && g.who === 'stranger' && !isClosed(before)) expect(t.records).toEqual([]);
          state = t.state!;
          records.push(...t.records);
          // Replaying the stored records rebuilds the same state, at every point.
          expect(replay(records)).toEqual(state);
          expect(state.offer).toBeGreaterThanOrEqual(before.offer);
          // A log showing the step never took effect neither resolves the case nor counts as a failure of it.
          if (g.kind === 'log' && g.notApplied && g.who !== 'stranger' && !isClosed(before) && before.awaiting !== 'question') {
            expect(t.records.some((r) => r.type === 'resolved' || r.type === 'plan_switched')).toBe(false);
            expect(t.records.filter((r) => r.type === 'answered').every((r) => (r as Extract<Record, { type: 'answered' }>).reason === 'could_not_apply')).toBe(true);
          }
          // An answer counts only for the question that is open.
          if (t.records.some((r) => r.type === 'clarified')) expect(before).toMatchObject({ awaiting: 'question', status: 'open' });
          // A question is open exactly while the case waits for its answer.
          if (!isClosed(state)) expect(state.question !== undefined).toBe(state.awaiting === 'question');
        }
        // Questions come before the first step, and none is answered twice.
        const firstStep = records.findIndex((r) => r.type === 'offered');
        if (firstStep >= 0) expect(records.slice(firstStep).some((r) => r.type === 'asked')).toBe(false);
        const answered = records.filter((r) => r.type === 'clarified').map((r) => (r as Extract<Record, { type: 'clarified' }>).question);
        expect(new Set(answered).size).toBe(answered.length);
        expect(state.clarified).toEqual(answered);
        const resolved = records.filter((r) => r.type === 'resolved');
        if (state.status === 'resolved') {
          // Exactly one resolving step, and it is recorded as such.
          expect(resolved).toHaveLength(1);
          expect(state.resolvingStep).toBe((resolved[0] as Extract<Record, { type: 'resolved' }>).step);
          // Confirmed only when the user said it worked.
          if (state.resolution === 'confirmed') expect(records.some((r) => r.type === 'answered' && r.answer === 'worked')).toBe(true);
        } else {
          expect(resolved).toHaveLength(0);
          expect(state.resolvingStep).toBeUndefined();
        }
        // One closing, or an idle close followed by the fix confirmed late.
        const closings = records.filter((r) => ['resolved', 'escalated', 'abandoned', 'cancelled'].includes(r.type)).map((r) => r.type);
        if (closings.length === 2) expect(closings).toEqual(['abandoned', 'resolved']);
        else expect(closings.length).toBe(isClosed(state) ? 1 : 0);
      }),
      { numRuns: 500 },
    );
  });
});
