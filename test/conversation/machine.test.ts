// The conversation rules, one behaviour at a time, on the pure state machine.
import { describe, expect, it } from 'vitest';
import { replay, step, type CaseState, type Command, type PlanRef } from '../../src/conversation/machine.ts';

const sampling: PlanRef = { entry: 'gpu-oom-sampling', category: 'oom_gpu_sampling', steps: ['reduce-workload', 'reserve-vram', 'tiled-vae-decode'] };
const vae: PlanRef = { entry: 'gpu-oom-vae', category: 'oom_gpu_vae', steps: ['tiled-vae-decode', 'vae-precision-or-cpu'] };
const notOom: PlanRef = { entry: 'shape-mismatch', category: 'not_oom', steps: ['match-model-and-encoder'] };

const who = { actor: 'alice', moderator: false };
const open = (): CaseState => step(undefined, { kind: 'open', at: 0, caseId: 'c1', owner: 'alice', lang: 'en', plan: sampling }).state!;
const run = (s: CaseState, ...commands: Command[]) => {
  let state = s;
  const all = [];
  for (const c of commands) {
    const t = step(state, c);
    state = t.state!;
    all.push(t);
  }
  return { state, last: all.at(-1)! };
};
const act = (offer: number, action: 'worked' | 'failed' | 'skip' | 'newlog' | 'stop', at = 1): Command => ({ kind: 'action', at, offer, action, ...who });
const why = (offer: number, reason: 'same' | 'different' | 'could_not_apply', at = 2): Command => ({ kind: 'reason', at, offer, reason, ...who });
const log = (plan: PlanRef, oom = plan.category !== 'not_oom', at = 3): Command => ({ kind: 'log', at, plan, oom, ...who });
/** A new log the engine read as showing the step on screen never took effect. */
const notApplied = (plan: PlanRef): Command => ({ kind: 'log', at: 3, plan, oom: plan.category !== 'not_oom', notApplied: true, ...who });

describe('the guided conversation', () => {
  it('opens on step 1 with the five actions', () => {
    const t = step(undefined, { kind: 'open', at: 0, caseId: 'c1', owner: 'alice', lang: 'en', plan: sampling });
    expect(t.replies).toEqual([{ type: 'step', step: 'reduce-workload', index: 0, total: 3, offer: 1 }]);
    expect(t.records.map((r) => r.type)).toEqual(['opened', 'offered']);
    expect(t.state).toMatchObject({ status: 'open', awaiting: 'answer', index: 0, offer: 1 });
  });

  it('resolves, confirmed, when the user says it worked', () => {
    const { state, last } = run(open(), act(1, 'worked'));
    expect(state).toMatchObject({ status: 'resolved', resolvingStep: 'reduce-workload', resolution: 'confirmed' });
    expect(last.replies).toEqual([{ type: 'resolved', step: 'reduce-workload', resolution: 'confirmed' }]);
  });

  it('asks why in one tap when a step still fails, then moves on', () => {
    const s1 = run(open(), act(1, 'failed'));
    expect(s1.last.replies).toEqual([{ type: 'ask_reason', step: 'reduce-workload', offer: 2 }]);
    const s2 = run(s1.state, why(2, 'same'));
    expect(s2.state.tried).toEqual([{ entry: 'gpu-oom-sampling', step: 'reduce-workload', answer: 'failed', reason: 'same' }]);
    expect(s2.last.replies).toEqual([{ type: 'step', step: 'reserve-vram', index: 1, total: 3, offer: 3 }]);
  });

  it('skips, and escalates with everything tried when the steps run out', () => {
    const { state, last } = run(open(), act(1, 'skip'), act(2, 'skip'), act(3, 'failed'), why(4, 'could_not_apply'));
    expect(state.status).toBe('escalated');
    expect(last.replies[0]).toMatchObject({ type: 'escalation', tried: [{ answer: 'skipped' }, { answer: 'skipped' }, { answer: 'failed', reason: 'could_not_apply' }] });
  });

  it('continues the plan when a new log shows the same failure', () => {
    const { state, last } = run(open(), act(1, 'newlog'), log(sampling));
    expect(last.replies).toEqual([{ type: 'same_failure', step: 'reduce-workload' }, { type: 'step', step: 'reserve-vram', index: 1, total: 3, offer: 3 }]);
    expect(state.tried).toEqual([{ entry: 'gpu-oom-sampling', step: 'reduce-workload', answer: 'failed', reason: 'same' }]);
  });

  it('credits the step and switches plans when a different OOM appears, without re-offering tried steps', () => {
    const { state, last } = run(open(), act(1, 'skip'), act(2, 'failed'), why(3, 'different'), log(vae));
    expect(last.records.map((r) => r.type)).toEqual(['log_pasted', 'plan_switched', 'offered']);
    expect(last.records[1]).toMatchObject({ credited: 'reserve-vram' });
    expect(state.plan.entry).toBe('gpu-oom-vae');
    expect(last.replies.at(-1)).toMatchObject({ type: 'step', step: 'tiled-vae-decode' });
  });

  it('resolves by the last step, assumed, when the new log is no longer an OOM', () => {
    const { state, last } = run(open(), act(1, 'failed'), why(2, 'different'), log(notOom));
    expect(state).toMatchObject({ status: 'resolved', resolvingStep: 'reduce-workload', resolution: 'assumed' });
    expect(last.replies).toEqual([{ type: 'resolved', step: 'reduce-workload', resolution: 'assumed' }, { type: 'new_error', entry: 'shape-mismatch' }]);
  });

  it('records a step the new log shows never took effect as "couldn\'t apply it" and offers the next, even when the log is no OOM', () => {
    const refused: PlanRef = { entry: 'launch-flag-rejected', category: 'not_oom', steps: ['fix-rejected-flag'] };
    const { state, last } = run(open(), act(1, 'skip'), act(2, 'newlog'), notApplied(refused));
    expect(last.replies).toEqual([
      { type: 'not_applied', step: 'reserve-vram', entry: 'launch-flag-rejected' },
      { type: 'step', step: 'tiled-vae-decode', index: 2, total: 3, offer: 4 },
    ]);
    expect(state.status).toBe('open');
    expect(state.plan).toEqual(sampling);
    expect(state.tried.at(-1)).toEqual({ entry: 'gpu-oom-sampling', step: 'reserve-vram', answer: 'failed', reason: 'could_not_apply' });
    expect(last.records.map((r) => r.type)).toEqual(['log_pasted', 'answered', 'offered']);
  });

  it('keeps the user\'s own answer when the step was already answered, then moves on', () => {
    const { state, last } = run(open(), act(1, 'failed'), why(2, 'different'), notApplied(sampling));
    expect(state.tried).toEqual([{ entry: 'gpu-oom-sampling', step: 'reduce-workload', answer: 'failed', reason: 'different' }]);
    expect(last.replies[0]).toEqual({ type: 'not_applied', step: 'reduce-workload', entry: 'gpu-oom-sampling' });
  });

  it('ignores double clicks and buttons of earlier steps, and says so', () => {
    const s1 = run(open(), act(1, 'skip'));
    const again = step(s1.state, act(1, 'skip'));
    expect(again.records).toEqual([]);
    expect(again.state).toEqual(s1.state);
    expect(again.replies).toEqual([{ type: 'rejected', why: 'stale', current: { step: 'reserve-vram', index: 1, total: 3 } }]);
  });

  it("refuses someone else's click but accepts a moderator's", () => {
    const s = open();
    const other = step(s, { kind: 'action', at: 1, offer: 1, action: 'worked', actor: 'bob', moderator: false });
    expect(other.records).toEqual([]);
    expect(other.replies[0]).toMatchObject({ type: 'rejected', why: 'not_owner' });
    const mod = step(s, { kind: 'action', at: 1, offer: 1, action: 'skip', actor: 'mod', moderator: true });
    expect(mod.state!.index).toBe(1);
  });

  it('abandons an idle case, never as resolved; afterwards only "Worked" on the step last shown counts, as a confirmed fix', () => {
    const s = open();
    expect(step(s, { kind: 'tick', at: 1000, idleMs: 5000 }).records).toEqual([]);
    const t = step(s, { kind: 'tick', at: 6000, idleMs: 5000 });
    expect(t.state).toMatchObject({ status: 'abandoned' });
    expect(t.state!.resolvingStep).toBeUndefined();
    for (const refused of [act(1, 'skip', 7000), act(1, 'failed', 7000), act(0, 'worked', 7000)]) {
      const after = step(t.state, refused);
      expect(after.records).toEqual([]);
      expect(after.replies[0]).toMatchObject({ type: 'rejected', why: 'closed' });
    }
    expect(step(t.state, { kind: 'action', at: 7000, offer: 1, action: 'worked', actor: 'bob', moderator: false }).replies[0]).toMatchObject({ type: 'rejected' });
    const late = step(t.state, act(1, 'worked', 7000));
    expect(late.state).toMatchObject({ status: 'resolved', resolution: 'confirmed', resolvingStep: s.plan.steps[0] });
  });

  it('reminds a silent case once, halfway to its idle close; an answer starts the count again', () => {
    const s = open();
    expect(step(s, { kind: 'tick', at: 2000, idleMs: 5000 }).records).toEqual([]);
    const half = step(s, { kind: 'tick', at: 3000, idleMs: 5000 });
    expect(half.records).toEqual([{ type: 'reminded', at: 3000 }]);
    expect(half.replies).toEqual([{ type: 'reminder', step: s.plan.steps[0], offer: 1, awaiting: 'answer' }]);
    expect(half.state).toMatchObject({ status: 'open', reminded: true, lastActivity: s.lastActivity });
    expect(step(half.state, { kind: 'tick', at: 4000, idleMs: 5000 }).records).toEqual([]);
    expect(step(half.state, { kind: 'tick', at: 6000, idleMs: 5000 }).state).toMatchObject({ status: 'abandoned' });
    const answered = run(half.state!, act(1, 'skip', 4500)).state;
    expect(answered.reminded).toBeUndefined();
    expect(step(answered, { kind: 'tick', at: 7000, idleMs: 5000 }).records).toEqual([{ type: 'reminded', at: 7000 }]);
  });

  it('stops on request', () => {
    expect(run(open(), act(1, 'stop')).state.status).toBe('cancelled');
  });

  it('stops from any prompt of the current offer (the why, the new log), not from an old one', () => {
    const asked = run(open(), act(1, 'failed')).state;
    expect(step(asked, act(2, 'stop')).state!.status).toBe('cancelled');
    expect(step(asked, act(1, 'stop')).replies[0]).toMatchObject({ type: 'rejected', why: 'stale' });
    const awaitingLog = run(open(), act(1, 'newlog')).state;
    expect(step(awaitingLog, act(2, 'stop')).state!.status).toBe('cancelled');
    // Only stop: the step's other answers still need a step on screen.
    expect(step(asked, act(2, 'worked')).replies[0]).toMatchObject({ type: 'rejected', why: 'stale' });
  });

  it('rebuilds the same state from its records', () => {
    const commands = [act(1, 'skip'), act(2, 'failed'), why(3, 'different'), log(vae), act(5, 'worked')];
    let s: CaseState | undefined;
    const records = [];
    for (const c of [{ kind: 'open', at: 0, caseId: 'c1', owner: 'alice', lang: 'en', plan: sampling } as Command, ...commands]) {
      const t = step(s, c);
      s = t.state;
      records.push(...t.records);
    }
    expect(replay(records)).toEqual(s);
    expect(s).toMatchObject({ status: 'resolved', resolvingStep: 'tiled-vae-decode' });
  });
});

describe('the question before the first step', () => {
  const generic: PlanRef = { entry: 'gpu-oom-other', category: 'oom_gpu_other', steps: ['upscale-in-tiles', 'reduce-workload'] };
  const amd: PlanRef = { entry: 'amd-hip-oom', category: 'oom_amd_hip', steps: ['amd-attention'] };
  const asking = (question: 'vendor' | 'stage' = 'stage') => step(undefined, { kind: 'open', at: 0, caseId: 'c1', owner: 'alice', lang: 'en', plan: generic, question });
  type Clarify = Extract<Command, { kind: 'clarify' }>;
  const answer = (offer: number, question: Clarify['question'], choice: Clarify['choice'], plan: PlanRef, more: Partial<Clarify> = {}): Clarify => ({
    kind: 'clarify',
    at: 5,
    offer,
    question,
    choice,
    plan,
    ...who,
    ...more,
  });

  it('opens on the question instead of step 1', () => {
    const t = asking();
    expect(t.records.map((r) => r.type)).toEqual(['opened', 'asked']);
    expect(t.replies).toEqual([{ type: 'question', question: 'stage', offer: 1 }]);
    expect(t.state).toMatchObject({ awaiting: 'question', question: 'stage', offer: 1, clarified: [] });
  });

  it('re-plans on the answer and offers the new plan\'s first step', () => {
    const { state, last } = run(asking().state!, answer(1, 'stage', 'sampling', sampling));
    expect(last.records.map((r) => r.type)).toEqual(['clarified', 'offered']);
    expect(last.replies).toEqual([
      { type: 'clarified', choice: 'sampling', replanned: 'gpu-oom-sampling' },
      { type: 'step', step: 'reduce-workload', index: 0, total: 3, offer: 2 },
    ]);
    // Nothing was tried on the first plan: the answer replaces it rather than following it.
    expect(state).toMatchObject({ awaiting: 'answer', plan: sampling, plans: [sampling], clarified: ['stage'] });
    expect(state.question).toBeUndefined();
  });

  it('keeps the generic plan on "I don\'t know"', () => {
    const { state, last } = run(asking().state!, answer(1, 'stage', 'unknown', generic));
    expect(last.replies[0]).toEqual({ type: 'clarified', choice: 'unknown' });
    expect(state).toMatchObject({ plan: generic, index: 0, awaiting: 'answer' });
  });

  it('keeps a typed node name with the answer', () => {
    const { last } = run(asking().state!, answer(1, 'stage', 'sampling', sampling, { typed: true, node: 'KSampler' }));
    expect(last.records[0]).toMatchObject({ type: 'clarified', choice: 'sampling', typed: true, node: 'KSampler' });
    expect(last.replies[0]).toMatchObject({ node: 'KSampler' });
  });

  it('asks the stage after "NVIDIA", and no question twice', () => {
    const first = run(asking('vendor').state!, answer(1, 'vendor', 'nvidia', generic, { next: 'stage' }));
    expect(first.last.replies).toEqual([{ type: 'clarified', choice: 'nvidia' }, { type: 'question', question: 'stage', offer: 2 }]);
    expect(first.state).toMatchObject({ awaiting: 'question', question: 'stage', clarified: ['vendor'] });
    const second = run(first.state, answer(2, 'stage', 'sampling', sampling, { next: 'vendor' }));
    expect(second.last.records.map((r) => r.type)).toEqual(['clarified', 'offered']);
  });

  it('goes to the AMD plan on "AMD"', () => {
    const { state } = run(asking('vendor').state!, answer(1, 'vendor', 'amd', amd));
    expect(state).toMatchObject({ plan: amd, awaiting: 'answer', index: 0 });
  });

  it('stops at the question, with no step tried', () => {
    const { state, last } = run(asking().state!, act(1, 'stop'));
    expect(state.status).toBe('cancelled');
    expect(state.tried).toEqual([]);
    expect(last.replies).toEqual([{ type: 'cancelled' }]);
  });

  it('refuses a stale, doubled or wrong-question answer, a stranger\'s, and step buttons, repeating the question', () => {
    const s = asking().state!;
    for (const c of [answer(0, 'stage', 'sampling', sampling), answer(1, 'vendor', 'nvidia', generic), act(1, 'worked'), why(1, 'same')]) {
      const t = step(s, c);
      expect(t.records).toEqual([]);
      expect(t.replies).toEqual([{ type: 'rejected', why: 'stale', question: 'stage' }]);
    }
    const stranger = step(s, { ...answer(1, 'stage', 'sampling', sampling), actor: 'bob' });
    expect(stranger.replies).toEqual([{ type: 'rejected', why: 'not_owner', question: 'stage' }]);
    const moderator = step(s, { ...answer(1, 'stage', 'sampling', sampling), actor: 'mod', moderator: true });
    expect(moderator.state!.plan).toEqual(sampling);
    const answered = run(s, answer(1, 'stage', 'sampling', sampling)).state;
    expect(step(answered, answer(1, 'stage', 'sampling', sampling)).replies[0]).toMatchObject({ type: 'rejected', why: 'stale', current: { step: 'reduce-workload' } });
  });

  it('lets a new log that shows more win: its plan replaces the first, with no step credited', () => {
    const { state, last } = run(asking().state!, log(vae));
    expect(last.records.map((r) => r.type)).toEqual(['log_pasted', 'replanned', 'offered']);
    expect(last.replies).toEqual([{ type: 'rediagnosed', entry: 'gpu-oom-vae' }, { type: 'step', step: 'tiled-vae-decode', index: 0, total: 2, offer: 2 }]);
    expect(state).toMatchObject({ plan: vae, plans: [vae], tried: [], awaiting: 'answer' });
  });

  it('asks again when the new log still cannot tell, but not what was answered', () => {
    const again = run(asking().state!, { kind: 'log', at: 3, plan: generic, oom: true, question: 'stage', ...who });
    expect(again.last.replies.at(-1)).toEqual({ type: 'question', question: 'stage', offer: 2 });
    const afterVendor = run(asking('vendor').state!, answer(1, 'vendor', 'nvidia', generic, { next: 'stage' }), { kind: 'log', at: 6, plan: generic, oom: true, question: 'vendor', ...who });
    expect(afterVendor.last.replies.at(-1)).toMatchObject({ type: 'step', index: 0 });
  });

  it('rebuilds the question, the answer and the re-plan from its records', () => {
    let s: CaseState | undefined;
    const records = [];
    for (const c of [
      { kind: 'open', at: 0, caseId: 'c1', owner: 'alice', lang: 'en', plan: generic, question: 'vendor' } as Command,
      answer(1, 'vendor', 'nvidia', generic, { next: 'stage' }),
      answer(2, 'stage', 'sampling', sampling, { typed: true, node: 'KSampler' }),
      act(3, 'skip', 7),
    ]) {
      const t = step(s, c);
      s = t.state;
      records.push(...t.records);
      expect(replay(records)).toEqual(s);
    }
    expect(s).toMatchObject({ plan: sampling, index: 1, clarified: ['vendor', 'stage'] });
  });
});

