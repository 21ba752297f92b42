// "That's not my problem", end to end on the real kb, classifier and both stores: pressed or typed,
// the case asks for the whole log, the next log replaces the diagnosis without crediting a step,
// the learning counts forget what was tried against the wrong one, and stats count it apart; a
// moderator's relabel moves the case and its counts to the entry it really was.
import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { Engine, type Origin } from '../../src/conversation/engine.ts';
import type { Message } from '../../src/conversation/render.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openStore } from '../../src/store/open.ts';
import { all } from '../../src/store/sql.ts';
import { computeStats } from '../../src/stats/figures.ts';
import { kbNames } from '../../src/stats/report.ts';
import { statsText } from '../../src/stats/text.ts';
import { describeStores, type Stores } from '../helpers/stores.ts';
import { kb } from '../helpers/kb.ts';
import { inNode, onNvidia } from './pastes.ts';

const alice: Origin = { platform: 'discord', server: 'g1', channel: 'help', user: 'alice' };
const mod = { actor: 'mod', moderator: true, lang: 'en' as const, scope: { platform: 'discord', server: 'g1' } };
/** Sampling on an NVIDIA card: nothing left to ask, so a doubt asks for the whole log. */
const SAMPLING = onNvidia(inNode('KSampler'));
/** What the whole log showed: system RAM ran out while loading. */
const RAM = onNvidia('RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to allocate 11796480000 bytes.');

const setupOn = (stores: Stores) => async () => {
  let clock = 1_700_000_000_000;
  const db = await openStore(await stores.fresh());
  const store = new CaseStore(db);
  return { db, store, engine: new Engine({ kb, store, now: () => (clock += 1000) }) };
};
const text = (said: Message[] | { message: Message }) => ('message' in said ? [said.message] : said).flatMap((m) => m.blocks.map((b) => b.text)).join('\n');
const button = (messages: Message[], label: string) => messages.flatMap((m) => m.buttons ?? []).find((b) => b.label === label)!.id;
const counts = async (db: CaseStore['sql'], entry: string) =>
  all<{ step: string; offered: number; fixed: number; failed: number }>(db.db, sql`SELECT step, offered, fixed, failed FROM step_outcomes WHERE entry = ${entry} AND (offered <> 0 OR fixed <> 0 OR failed <> 0) ORDER BY step`);

describeStores('a diagnosis the user says is not their problem', (stores) => {
  const setup = setupOn(stores);

  it('is one press away on the diagnosis, asks for the whole log, and re-diagnoses from it without credit', async () => {
    const { engine, store, db } = await setup();
    const opened = await engine.open(alice, SAMPLING);
    const caseId = opened[0]!.caseId!;
    expect(opened[0]!.buttons!.map((b) => b.label)).toContain("That's not my problem");
    await engine.press(button(opened, 'Still failing'), alice);
    const why = await engine.current(caseId);
    await engine.press(button(why, 'Same error'), alice);
    expect(await counts(db, 'gpu-oom-sampling')).not.toEqual([]);

    const doubted = await engine.press(button(opened, "That's not my problem"), alice);
    expect(text(doubted)).toMatch(/Sorry, I read your log wrong/);
    expect(text(doubted)).toMatch(/Paste the whole console log/);
    // What was tried against the wrong diagnosis teaches nothing.
    expect(await counts(db, 'gpu-oom-sampling')).toEqual([]);
    // A second press (a double click) changes nothing.
    expect(text(await engine.press(button(opened, "That's not my problem"), alice))).toMatch(/earlier question/);

    const rediagnosed = await engine.paste(caseId, RAM, alice);
    expect(text(rediagnosed)).toMatch(/From this log, the diagnosis is/);
    expect(text(rediagnosed)).not.toMatch(/got past the first failure/);
    const records = (await store.records(caseId)).map((r) => r.type);
    expect(records).not.toContain('plan_switched');
    expect(records.slice(-5)).toEqual(['misdiagnosed', 'asked_log', 'log_pasted', 'replanned', 'offered']);
    const state = (await store.get(caseId))!.state;
    expect(state.plan.entry).toBe('ram-oom');
    expect((await store.get(caseId))!.row.misdiagnosed).toBe('gpu-oom-sampling');

    const stats = await computeStats(db);
    expect(stats.misdiagnosed).toEqual({ cases: 1, share: 1, byEntry: [{ entry: 'gpu-oom-sampling', cases: 1 }], recent: [{ caseId, doubted: 'gpu-oom-sampling', now: 'ram-oom' }] });
    const report = (all: boolean) => statsText(stats, { lang: 'en', names: kbNames(kb, 'en'), all, seeAll: 'comfyoom stats --all' });
    expect(report(false)).toMatch(/Said "that's not my problem".*: 1 \(100\.0%\): 1 × Out of GPU memory while sampling$/m);
    expect(report(false)).toContain(`${caseId}: Out of GPU memory while sampling -> Out of system RAM (not VRAM)`);
    // The ids relabelling takes, where a moderator asks for them.
    expect(report(true)).toContain(`${caseId}: Out of GPU memory while sampling (gpu-oom-sampling) -> Out of system RAM (not VRAM) (ram-oom)`);

    // Stats keep the figure when the case is deleted.
    await store.forgetUser('alice');
    expect((await computeStats(db)).misdiagnosed).toMatchObject({ cases: 1, recent: [] });
  });

  it('is understood typed, in either language', async () => {
    for (const [words, locale] of [["that's not my problem", 'en-US'], ['不是这个问题', 'zh-CN']] as const) {
      const { engine, store } = await setup();
      const opened = await engine.open({ ...alice, locale }, SAMPLING);
      const caseId = opened[0]!.caseId!;
      const out = await engine.paste(caseId, words, { ...alice, locale });
      expect(text(out)).toMatch(locale === 'zh-CN' ? /抱歉，我看错了你的日志/ : /Sorry, I read your log wrong/);
      expect((await store.records(caseId)).map((r) => r.type)).toContain('misdiagnosed');
    }
  });

  it('is relabelled by a moderator of its server, which moves its stats and learning counts', async () => {
    const { engine, store, db } = await setup();
    const opened = await engine.open(alice, SAMPLING);
    const caseId = opened[0]!.caseId!;
    await engine.press(button(opened, 'Worked'), alice);
    expect(await counts(db, 'gpu-oom-sampling')).toEqual([expect.objectContaining({ offered: 1, fixed: 1 })]);

    const refused = await engine.relabel(caseId, 'gpu-oom-vae', { ...mod, actor: 'alice', moderator: false });
    expect(text(refused)).toMatch(/Only moderators/);
    const elsewhere = await engine.relabel(caseId, 'gpu-oom-vae', { ...mod, scope: { platform: 'discord', server: 'g2' } });
    expect(text(elsewhere)).toMatch(/could not find that case/);
    const typo = await engine.relabel(caseId, 'vae oom', mod);
    expect(text(typo)).toMatch(/no kb entry "vae oom".*gpu-oom-vae/);

    const done = await engine.relabel(caseId, 'gpu-oom-vae', mod);
    expect(text(done)).toMatch(/now counts as "Out of GPU memory/);
    expect(await counts(db, 'gpu-oom-sampling')).toEqual([]);
    expect(await counts(db, 'gpu-oom-vae')).toEqual([expect.objectContaining({ offered: 1, fixed: 1 })]);
    const stats = await computeStats(db);
    expect(stats.entries.map((e) => [e.entry, e.category, e.resolvedConfirmed])).toEqual([['gpu-oom-vae', 'oom_gpu_vae', 1]]);
    expect((await store.get(caseId))!.state.status).toBe('resolved');
  });
});
