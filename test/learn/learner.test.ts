// Learning from what the store records: outcomes counted per plan as the records are written, in a
// real SQLite file and on a real PostgreSQL server, and the Learner reading those counters back
// into an order.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { step, type CaseState, type Command, type PlanRef, type Record } from '../../src/conversation/machine.ts';
import { Learner, outcomesOf, POLICY } from '../../src/learn/index.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openStore } from '../../src/store/open.ts';
import { all, value } from '../../src/store/sql.ts';
import { loadKb } from '../../src/kb/load.ts';
import { describeStores } from '../helpers/stores.ts';

const kb = loadKb();
const vaeEntry = kb.entries.find((e) => e.id === 'gpu-oom-vae')!;
const ctx = 'vram=<8 os=windows backend=cuda dynvram=?';
const vae: PlanRef = { entry: 'gpu-oom-vae', category: 'oom_gpu_vae', steps: ['tiled-vae-decode', 'vae-precision-or-cpu', 'reduce-workload'], order: { context: ctx, by: 'kb', seed: 1 } };
const sampling: PlanRef = { entry: 'gpu-oom-sampling', category: 'oom_gpu_sampling', steps: ['reduce-workload', 'reserve-vram'] };
const who = { actor: 'u', moderator: false };

/** Plays commands through the machine, returning each transition's records and the state after it. */
function play(plan: PlanRef, commands: ((s: CaseState) => Command)[]): { records: Record[]; state: CaseState }[] {
  let t = step(undefined, { kind: 'open', at: 1, caseId: 'k', owner: 'u', lang: 'en', plan });
  const out = [{ records: t.records, state: t.state! }];
  for (const c of commands) {
    t = step(t.state, c(t.state!));
    out.push({ records: t.records, state: t.state! });
  }
  return out;
}
const act = (action: 'worked' | 'failed' | 'skip') => (s: CaseState): Command => ({ kind: 'action', at: 2, offer: s.offer, action, ...who });
const why = (reason: 'same' | 'different' | 'could_not_apply') => (s: CaseState): Command => ({ kind: 'reason', at: 3, offer: s.offer, reason, ...who });
const log = (plan: PlanRef, oom = true) => (): Command => ({ kind: 'log', at: 4, plan, oom, ...who });

describe('outcomesOf', () => {
  it('counts each answer for the step and the plan it belongs to, a different failure crediting the plan before it', () => {
    const transitions = play(vae, [act('failed'), why('same'), act('skip'), act('failed'), why('different'), log(sampling), act('worked')]);
    const all = transitions.flatMap((t) => outcomesOf(t.records, t.state).map((o) => `${o.entry}/${o.context}/${o.step}/${o.kind}`));
    expect(all).toEqual([
      `gpu-oom-vae/${ctx}/tiled-vae-decode/offered`,
      `gpu-oom-vae/${ctx}/tiled-vae-decode/tried`,
      `gpu-oom-vae/${ctx}/tiled-vae-decode/failed`,
      `gpu-oom-vae/${ctx}/vae-precision-or-cpu/offered`,
      `gpu-oom-vae/${ctx}/vae-precision-or-cpu/skipped`,
      `gpu-oom-vae/${ctx}/reduce-workload/offered`,
      `gpu-oom-vae/${ctx}/reduce-workload/tried`,
      `gpu-oom-vae/${ctx}/reduce-workload/movedOn`,
      // A plan from before learning has no setup; the step the case already tried is not offered again.
      'gpu-oom-sampling//reserve-vram/offered',
      'gpu-oom-sampling//reserve-vram/tried',
      'gpu-oom-sampling//reserve-vram/fixed',
    ]);
  });

  it('counts could-not-apply and an assumed resolution', () => {
    const transitions = play(vae, [act('failed'), why('could_not_apply'), log({ entry: 'shape-mismatch', category: 'not_oom', steps: [] }, false)]);
    const kinds = transitions.flatMap((t) => outcomesOf(t.records, t.state)).map((o) => `${o.step}/${o.kind}`);
    expect(kinds).toEqual(['tiled-vae-decode/offered', 'tiled-vae-decode/notApplied', 'vae-precision-or-cpu/offered', 'vae-precision-or-cpu/assumed']);
  });
});

/** Stores n cases of the VAE entry in one setup, each fixed by `fixer` after failing the steps before it. */
async function storeCases(store: CaseStore, n: number, fixer: string, from = 0) {
  for (let i = from; i < from + n; i++) {
    const id = `c${i}`;
    let t = step(undefined, { kind: 'open', at: i, caseId: id, owner: 'u', lang: 'en', plan: vae });
    await store.create({ id, platform: 'discord', server: 'G1', userId: 'u', createdAt: i, category: 'oom_gpu_vae', entry: 'gpu-oom-vae', kbVersion: 'v', facts: {}, paste: 'p', fingerprint: 'f', recognized: true }, t.records, t.state!);
    while (t.state!.status === 'open') {
      const s = t.state!;
      const current = s.plan.steps[s.index];
      t = step(s, { kind: 'action', at: i, offer: s.offer, action: current === fixer ? 'worked' : 'failed', ...who });
      if (t.state!.awaiting === 'reason') {
        await store.append(id, t.records, t.state!);
        t = step(t.state, { kind: 'reason', at: i, offer: t.state!.offer, reason: 'same', ...who });
      }
      await store.append(id, t.records, t.state!);
    }
  }
}

describeStores('the Learner over the store', ({ fresh }) => {
  const tmpDb = async () => openStore(await fresh());

  it('counts outcomes as the store writes records, per entry, setup and step, and per day for stats', async () => {
    const db = await tmpDb();
    const store = new CaseStore(db);
    await storeCases(store, 3, 'vae-precision-or-cpu');
    expect(await all(db.db, sql`SELECT step, offered, fixed, failed FROM step_outcomes WHERE entry = ${'gpu-oom-vae'} AND context = ${ctx} ORDER BY step`)).toEqual([
      { step: 'tiled-vae-decode', offered: 3, fixed: 0, failed: 3 },
      { step: 'vae-precision-or-cpu', offered: 3, fixed: 3, failed: 0 },
    ]);
    expect(await all(db.db, sql`SELECT day, platform, server, step, offered, tried, fixed FROM step_days ORDER BY step`)).toEqual([
      { day: 0, platform: 'discord', server: 'G1', step: 'tiled-vae-decode', offered: 3, tried: 3, fixed: 0 },
      { day: 0, platform: 'discord', server: 'G1', step: 'vae-precision-or-cpu', offered: 3, tried: 3, fixed: 3 },
    ]);
    // Forgetting the cases leaves the anonymous counters as they were.
    await store.forgetUser('u');
    expect(await value(db.db, sql`SELECT SUM(fixed) AS n FROM step_outcomes`)).toBe(3);
  });

  it('gives the kb order with the learned one as a suggestion until enough fixes are confirmed, then the learned order', async () => {
    const db = await tmpDb();
    const store = new CaseStore(db);
    const learner = new Learner(db, kb);
    const facts = { vramGb: 6, os: 'windows' as const, backend: 'cuda' as const, signatures: [], flags: [], evidence: {} };
    await storeCases(store, POLICY.autoOnConfirmed - 1, 'reduce-workload');
    const before = await learner.order(vaeEntry, facts, 7);
    expect(before.steps).toEqual(vaeEntry.steps);
    expect(before.order).toMatchObject({ context: ctx, by: 'kb', seed: 7 });
    expect(before.order.suggested?.[0]).toBe('reduce-workload');
    expect(await learner.record('gpu-oom-vae')).toMatchObject({ mode: 'suggest', adapts: true, confirmed: POLICY.autoOnConfirmed - 1 });

    await storeCases(store, 1, 'reduce-workload', 1000);
    const after = await learner.order(vaeEntry, facts, 7);
    expect(after.order).toEqual({ context: ctx, by: 'learned', seed: 7 });
    expect(after.steps[0]).toBe('reduce-workload');
    // The steps whose place is a rule keep the kb's places.
    expect(after.steps.indexOf('update-or-rollback')).toBe(vaeEntry.steps.indexOf('update-or-rollback'));
    expect(after.steps.at(-1)).toBe('share-full-log');
    // Reproducible: the same seed over the same counts.
    expect(await learner.order(vaeEntry, facts, 7)).toEqual(after);
    expect((await learner.record('gpu-oom-vae')).steps.get('reduce-workload')).toEqual({ tried: POLICY.autoOnConfirmed, fixed: POLICY.autoOnConfirmed, assumed: 0 });

    // off: the kb order, nothing claimed; a moderator's pin holds a step in place.
    expect((await new Learner(db, kb, 'off').order(vaeEntry, facts, 7)).steps).toEqual(vaeEntry.steps);
    expect((await new Learner(db, kb, 'off').record('gpu-oom-vae')).adapts).toBe(false);
    await learner.pin('gpu-oom-vae', 'tiled-vae-decode', 'mod');
    expect((await learner.order(vaeEntry, facts, 7)).steps[0]).toBe('tiled-vae-decode');
    await expect(learner.pin('gpu-oom-vae', 'lowvram', 'mod')).rejects.toThrow(/has no step "lowvram"/);
    expect(await learner.unpin('gpu-oom-vae', 'tiled-vae-decode')).toBe(true);
    expect((await learner.order(vaeEntry, facts, 7)).steps[0]).toBe('reduce-workload');
  });

  it('shows stats the learned order of every entry with outcomes, with its evidence', async () => {
    const db = await tmpDb();
    await storeCases(new CaseStore(db), 40, 'reduce-workload');
    const [learned] = await new Learner(db, kb).learnedOrders();
    expect(learned).toMatchObject({ entry: 'gpu-oom-vae', mode: 'on', confirmed: 40, kb: vaeEntry.steps });
    expect(learned!.learned[0]).toBe('reduce-workload');
    expect(learned!.steps[0]).toMatchObject({ step: 'reduce-workload', tried: 40, fixed: 40, entryAnswers: 40 });
  });
});
