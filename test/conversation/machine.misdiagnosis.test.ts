// "That's not my problem": the diagnosis is doubted, the bot asks what could tell (or for the whole
// log), and the next log replaces the plan without crediting anything; moderators relabel afterwards.
import { describe, expect, it } from 'vitest';
import { step, type CaseState, type Command, type PlanRef } from '../../src/conversation/machine.ts';
import { caseOutcomes, outcomesOf } from '../../src/records/outcomes.ts';
import type { Record as CaseRecord } from '../../src/conversation/machine.ts';

const sampling: PlanRef = { entry: 'gpu-oom-sampling', category: 'oom_gpu_sampling', steps: ['reduce-workload', 'reserve-vram', 'update-or-rollback'] };
const loader: PlanRef = { entry: 'ram-oom-loading', category: 'oom_ram', steps: ['page-file', 'reduce-workload'] };
const vae: PlanRef = { entry: 'gpu-oom-vae', category: 'oom_gpu_vae', steps: ['tiled-vae-decode'] };

const alice = { actor: 'alice', moderator: false };
const mod = { actor: 'mod', moderator: true };

/** Runs commands from the start, keeping every transition's records (as the store writes them). */
function run(...commands: Command[]) {
  let state: CaseState | undefined;
  const transitions: { records: CaseRecord[]; state: CaseState }[] = [];
  let last = step(undefined, commands[0]!);
  for (const c of commands) {
    last = step(state, c);
    state = last.state;
    transitions.push({ records: last.records, state: state! });
  }
  return { state: state!, last, transitions, records: transitions.flatMap((t) => t.records) };
}

const open: Command = { kind: 'open', at: 0, caseId: 'c1', owner: 'alice', lang: 'en', plan: sampling };
const doubt = (diagnosis = 0, extra: Partial<Command> = {}): Command => ({ kind: 'doubt', at: 5, diagnosis, ...alice, ...extra }) as Command;
const log = (plan: PlanRef): Command => ({ kind: 'log', at: 9, plan, oom: true, ...alice });

describe('a diagnosis the user says is not their problem', () => {
  it('asks for the whole log, and records which entry was wrong', () => {
    const { state, last } = run(open, doubt());
    expect(last.records.map((r) => r.type)).toEqual(['misdiagnosed', 'asked_log']);
    expect(last.records[0]).toMatchObject({ entry: 'gpu-oom-sampling' });
    expect(last.replies).toEqual([{ type: 'misdiagnosed', askLog: true, offer: 2 }]);
    expect(state).toMatchObject({ awaiting: 'log', doubted: true, status: 'open' });
  });

  it('asks the question that could tell instead, when the engine has one', () => {
    const { state, last } = run(open, doubt(0, { question: 'vendor' } as Partial<Command>));
    expect(last.replies).toEqual([{ type: 'misdiagnosed', askLog: false, offer: 2 }, { type: 'question', question: 'vendor', offer: 2 }]);
    expect(state).toMatchObject({ awaiting: 'question', question: 'vendor' });
  });

  it('replaces the plan with the next log, crediting no step and switching no plan', () => {
    const { state, last } = run(open, { kind: 'action', at: 1, offer: 1, action: 'failed', ...alice }, { kind: 'reason', at: 2, offer: 2, reason: 'same', ...alice }, doubt(), log(loader));
    expect(last.records.map((r) => r.type)).toEqual(['log_pasted', 'replanned', 'offered']);
    expect(last.replies[0]).toEqual({ type: 'rediagnosed', entry: 'ram-oom-loading', doubted: true });
    // The step tried against the wrong diagnosis is not offered again; the new plan's next one is.
    expect(last.replies[1]).toMatchObject({ type: 'step', step: 'page-file', index: 0 });
    expect(state.plans.map((p) => p.entry)).toEqual(['ram-oom-loading']);
    expect(state).toMatchObject({ diagnosis: 1, awaiting: 'answer' });
    expect(state.doubted).toBeUndefined();
  });

  it('takes a doubt once per diagnosis: a second press, an older diagnosis or a stranger is refused', () => {
    const twice = run(open, doubt(), doubt());
    expect(twice.last).toMatchObject({ records: [], replies: [{ type: 'rejected', why: 'stale' }] });
    const older = run(open, { kind: 'log', at: 3, plan: vae, oom: true, ...alice }, doubt(0));
    expect(older.state.diagnosis).toBe(1);
    expect(older.last.replies).toMatchObject([{ type: 'rejected', why: 'stale' }]);
    expect(run(open, doubt(1)).state.diagnosis).toBeUndefined();
    const stranger = run(open, { kind: 'doubt', at: 5, diagnosis: 0, actor: 'bob', moderator: false });
    expect(stranger.last.replies).toMatchObject([{ type: 'rejected', why: 'not_owner' }]);
  });

  it('is stopped like any prompt', () => {
    const { state } = run(open, doubt(), { kind: 'action', at: 6, offer: 2, action: 'stop', ...alice });
    expect(state.status).toBe('cancelled');
  });
});

describe('relabelling a case', () => {
  it('is for moderators, on open and closed cases alike, and changes nothing of the conversation', () => {
    const closed = run(open, { kind: 'action', at: 1, offer: 1, action: 'worked', ...alice });
    const refused = step(closed.state, { kind: 'relabel', at: 7, entry: 'ram-oom-loading', ...alice });
    expect(refused).toMatchObject({ records: [], replies: [{ type: 'rejected', why: 'not_moderator' }] });
    const done = step(closed.state, { kind: 'relabel', at: 7, entry: 'ram-oom-loading', ...mod });
    expect(done.records).toEqual([{ type: 'relabelled', at: 7, entry: 'ram-oom-loading', by: 'mod' }]);
    expect(done.state).toEqual({ ...closed.state, relabelled: 'ram-oom-loading' });
  });
});

describe('what the learning counts keep of a corrected case', () => {
  const counted = (outcomes: { entry: string; step: string; kind: string }[]) => outcomes.map((o) => `${o.entry} ${o.step} ${o.kind}`).sort();

  it('without a correction: what each transition counted, no more and no less', () => {
    const { transitions, records } = run(
      open,
      { kind: 'action', at: 1, offer: 1, action: 'failed', ...alice },
      { kind: 'reason', at: 2, offer: 2, reason: 'same', ...alice },
      { kind: 'log', at: 3, plan: vae, oom: true, ...alice },
      { kind: 'action', at: 4, offer: 4, action: 'worked', ...alice },
    );
    expect(counted(caseOutcomes(records))).toEqual(counted(transitions.flatMap((t) => outcomesOf(t.records, t.state))));
    expect(counted(caseOutcomes(records))).toContain('gpu-oom-sampling reserve-vram movedOn');
  });

  it('drops the steps tried against a doubted diagnosis, and keeps the new plan', () => {
    const { records } = run(
      open,
      { kind: 'action', at: 1, offer: 1, action: 'failed', ...alice },
      { kind: 'reason', at: 2, offer: 2, reason: 'same', ...alice },
      doubt(),
      log(loader),
      { kind: 'action', at: 10, offer: 5, action: 'worked', ...alice },
    );
    expect(counted(caseOutcomes(records))).toEqual(['ram-oom-loading page-file fixed', 'ram-oom-loading page-file offered', 'ram-oom-loading page-file tried']);
  });

  it('counts the first diagnosis under the entry a moderator names, doubted or not', () => {
    const { state, records } = run(open, { kind: 'action', at: 1, offer: 1, action: 'worked', ...alice });
    const relabelled = [...records, ...step(state, { kind: 'relabel', at: 7, entry: 'ram-oom-loading', ...mod }).records];
    expect(counted(caseOutcomes(relabelled))).toEqual(['ram-oom-loading reduce-workload fixed', 'ram-oom-loading reduce-workload offered', 'ram-oom-loading reduce-workload tried']);
    const doubted = run(open, { kind: 'action', at: 1, offer: 1, action: 'skip', ...alice }, doubt());
    const after = [...doubted.records, ...step(doubted.state, { kind: 'relabel', at: 7, entry: 'gpu-oom-vae', ...mod }).records];
    expect(counted(caseOutcomes(doubted.records))).toEqual([]);
    expect(counted(caseOutcomes(after))).toEqual(['gpu-oom-vae reduce-workload offered', 'gpu-oom-vae reduce-workload skipped', 'gpu-oom-vae reserve-vram offered']);
  });
});
