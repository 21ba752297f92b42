// The question before the first step, end to end on the real kb, classifier and both stores (an
// SQLite file, a PostgreSQL server): asked when the log cannot tell, answered by button or by
// typing, re-planned, stored, counted.
import { expect, it } from 'vitest';
import { Engine, type Origin } from '../../src/conversation/engine.ts';
import { replay } from '../../src/conversation/machine.ts';
import type { Message } from '../../src/conversation/render.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openStore, type StoreLocation } from '../../src/store/open.ts';
import { describeStores, type Stores } from '../helpers/stores.ts';
import { computeStats } from '../../src/stats/figures.ts';
import { kbNames } from '../../src/stats/report.ts';
import { statsText } from '../../src/stats/text.ts';
import { kb } from '../helpers/kb.ts';
import { BARE_OOM, inNode, onNvidia } from './pastes.ts';

const alice: Origin = { platform: 'discord', server: 'g1', channel: 'help', user: 'alice' };
const bob: Origin = { ...alice, user: 'bob' };

const setupOn = (stores: Stores) => async (where?: StoreLocation) => {
  const at = where ?? (await stores.fresh());
  let clock = 1_700_000_000_000;
  const db = await openStore(at);
  const store = new CaseStore(db);
  const engine = new Engine({ kb, store, now: () => (clock += 1000) });
  return { where: at, db, store, engine };
};
// The question's choices; "Show current step" rides on every message of a case.
const buttons = (messages: Message[]) => messages.flatMap((m) => m.buttons ?? []).filter((b) => !b.id.endsWith(':c'));
const button = (messages: Message[], label: string | RegExp) => buttons(messages).find((b) => (typeof label === 'string' ? b.label === label : label.test(b.label)))!.id;
const text = (messages: Message[]) => messages.flatMap((m) => m.blocks.map((b) => b.text)).join('\n');
const facts = async (store: CaseStore, caseId: string) => JSON.parse((await store.get(caseId))!.row.facts);

describeStores('the question before the first step', (stores) => {
  const setup = setupOn(stores);
  it('asks NVIDIA or AMD, then the node, and re-plans the case on the answers', async () => {
    const { engine, store } = await setup();
    const opened = await engine.open(alice, BARE_OOM);
    const caseId = opened[0]!.caseId!;
    // Titled as what is known, while the chat asks which node ran.
    expect(opened[0]!.blocks[0]!.text).toBe("Out of GPU memory; the log doesn't show which node");
    expect(text(opened)).toMatch(/NVIDIA, or AMD \(ROCm\/ZLUDA\)\?/);
    expect(text(opened)).not.toMatch(/Step 1 of/);
    expect(buttons(opened).map((b) => b.label)).toEqual(["That's not my problem", 'NVIDIA', 'AMD (ROCm/ZLUDA)', "I don't know", 'Stop']);
    expect((await store.records(caseId)).map((r) => r.type)).toEqual(['opened', 'asked']);

    const stage = await engine.press(button(opened, 'NVIDIA'), alice);
    expect(text(stage)).toMatch(/Got it: NVIDIA\./);
    expect(text(stage)).toMatch(/Which node was running \(outlined in red\)\?/);
    expect(buttons(stage).map((b) => b.label)).toEqual([
      'Sampler (KSampler, SamplerCustom, WanVideoSampler...)',
      'VAE Decode/Encode',
      'A loader (checkpoint, UNet, CLIP)',
      'An upscaler, detailer or other node',
      "I don't know",
      'Stop',
    ]);

    const planned = await engine.press(button(stage, /^Sampler/), alice);
    expect(text(planned)).toMatch(/So this is: Out of GPU memory while sampling/);
    expect(text(planned)).toMatch(/Step 1 of \d+/);
    const { row, state } = (await store.get(caseId))!;
    expect(row).toMatchObject({ entry: 'gpu-oom-sampling', category: 'oom_gpu_sampling' });
    expect(await facts(store, caseId)).toMatchObject({ gpuVendor: 'nvidia', stage: 'sampling', evidence: { stage: { source: 'user answer' }, gpuVendor: { source: 'user answer' } } });
    expect(state).toMatchObject({ awaiting: 'answer', plan: { entry: 'gpu-oom-sampling' }, clarified: ['vendor', 'stage'] });
    expect((await store.records(caseId)).map((r) => r.type)).toEqual(['opened', 'asked', 'clarified', 'asked', 'clarified', 'offered']);
    expect(replay(await store.records(caseId))).toEqual(state);
  });

  it('goes straight to the AMD plan on "AMD", asking no stage', async () => {
    const { engine, store } = await setup();
    const opened = await engine.open(alice, BARE_OOM);
    const out = await engine.press(button(opened, 'AMD (ROCm/ZLUDA)'), alice);
    expect(text(out)).toMatch(/Step 1 of/);
    expect((await store.get(opened[0]!.caseId!))!.row).toMatchObject({ entry: 'amd-hip-oom', category: 'oom_amd_hip' });
  });

  it('keeps the generic plan on "I don\'t know", twice', async () => {
    const { engine, store } = await setup();
    const opened = await engine.open(alice, BARE_OOM);
    const stage = await engine.press(button(opened, "I don't know"), alice);
    expect(text(stage)).toMatch(/No problem/);
    const out = await engine.press(button(stage, "I don't know"), alice);
    expect(text(out)).toMatch(/Step 1 of/);
    const { row, state } = (await store.get(opened[0]!.caseId!))!;
    expect(row.entry).toBe('gpu-oom-other');
    expect(state.plan.entry).toBe('gpu-oom-other');
    expect((await facts(store, row.id)).stage).toBeUndefined();
  });

  it("takes the node's name typed instead of a button, and chat for nothing", async () => {
    const { engine, store } = await setup();
    const caseId = (await engine.open(alice, onNvidia(BARE_OOM)))[0]!.caseId!;
    expect((await store.get(caseId))!.state.question).toBe('stage');
    const before = (await store.records(caseId)).length;
    const chat = await engine.paste(caseId, 'thanks, let me look', alice);
    expect(chat[0]).toMatchObject({ ephemeral: true });
    expect(text(chat)).toMatch(/could not read `thanks, let me look` as an answer/);
    expect(await store.records(caseId)).toHaveLength(before);
    expect(await engine.answersQuestion(caseId, 'VAEDecode')).toBe(true);
    expect(await engine.answersQuestion(caseId, 'thanks')).toBe(false);

    const out = await engine.paste(caseId, 'VAEDecode', alice);
    expect(text(out)).toMatch(/Got it: VAEDecode\. So this is: Out of GPU memory in VAE decode or encode/);
    expect((await store.get(caseId))!.row.entry).toBe('gpu-oom-vae');
    expect(await facts(store, caseId)).toMatchObject({ node: 'VAEDecode', stage: 'vae_decode' });
    expect((await store.records(caseId)).find((r) => r.type === 'clarified')).toMatchObject({ choice: 'vae', typed: true, node: 'VAEDecode' });
  });

  it('refuses a stranger, a stale and a doubled answer privately, and takes a moderator\'s', async () => {
    const { engine, store } = await setup();
    const opened = await engine.open(alice, onNvidia(BARE_OOM));
    const caseId = opened[0]!.caseId!;
    const sampler = button(opened, /^Sampler/);
    const stranger = await engine.press(sampler, bob);
    expect(stranger[0]).toMatchObject({ ephemeral: true });
    expect(text(stranger)).toMatch(/Only the person who opened this case.*current question is: Which node was running/s);
    expect((await engine.paste(caseId, 'KSampler', bob))[0]).toMatchObject({ ephemeral: true });
    expect((await store.records(caseId)).map((r) => r.type)).toEqual(['opened', 'asked']);

    await engine.press(button(opened, 'VAE Decode/Encode'), { ...bob, moderator: true });
    const doubled = await engine.press(sampler, alice);
    expect(doubled[0]).toMatchObject({ ephemeral: true });
    expect(text(doubled)).toMatch(/earlier question.*step 1 of/is);
    expect((await store.get(caseId))!.row.entry).toBe('gpu-oom-vae');
  });

  it('resumes at the question after a restart, and keeps the re-planned case after the answer', async () => {
    const a = await setup();
    const opened = await a.engine.open(alice, onNvidia(BARE_OOM));
    const caseId = opened[0]!.caseId!;
    await a.db.close();

    const b = await setup(a.where);
    expect(text(await b.engine.current(caseId))).toMatch(/Which node was running/);
    await b.engine.press(button(opened, 'A loader (checkpoint, UNet, CLIP)'), alice);
    await b.db.close();

    const c = await setup(a.where);
    expect((await c.store.get(caseId))!.state.plan.entry).toBe('gpu-oom-model-load');
    expect(text(await c.engine.current(caseId))).toMatch(/Step 1 of/);
    expect((await facts(c.store, caseId)).stage).toBe('model_load');
    expect(replay(await c.store.records(caseId))).toEqual((await c.store.get(caseId))!.state);
  });

  it('lets a new log that shows the stage win over the open question', async () => {
    const { engine, store } = await setup();
    const caseId = (await engine.open(alice, BARE_OOM))[0]!.caseId!;
    const out = await engine.paste(caseId, onNvidia(inNode('VAEDecode')), alice);
    expect(text(out)).toMatch(/That log tells me more/);
    expect(out.find((m) => m.blocks[0]?.kind === 'title')!.blocks[0]!.text).toMatch(/VAE/);
    expect(text(out)).toMatch(/Step 1 of/);
    const { state } = (await store.get(caseId))!;
    expect(state).toMatchObject({ awaiting: 'answer', plan: { entry: 'gpu-oom-vae' }, plans: [{ entry: 'gpu-oom-vae' }], tried: [] });
    expect((await store.records(caseId)).map((r) => r.type)).toEqual(['opened', 'asked', 'log_pasted', 'replanned', 'offered']);
  });

  it('asks in Chinese for a Chinese user', async () => {
    const { engine } = await setup();
    const opened = await engine.open({ ...alice, locale: 'zh-CN' }, onNvidia(BARE_OOM));
    expect(text(opened)).toMatch(/出错时正在运行的是哪个节点/);
    expect(buttons(opened).map((b) => b.label)).toEqual(['不是我的问题', '采样器（KSampler、SamplerCustom、WanVideoSampler…）', 'VAE 解码/编码', '加载器（checkpoint、UNet、CLIP）', '放大、修脸或其他节点', '不知道', '结束']);
    const out = await engine.press(button(opened, '不知道'), { ...alice, locale: 'zh-CN' });
    expect(text(out)).toMatch(/没关系/);
    expect(text(out)).toMatch(/第 1 步/);
  });

  it('counts in stats how often it asked and what was answered', async () => {
    const { engine, db } = await setup();
    const a = await engine.open(alice, BARE_OOM);
    await engine.press(button(await engine.press(button(a, 'NVIDIA'), alice), /^Sampler/), alice);
    const b = await engine.open(alice, BARE_OOM);
    await engine.press(button(b, "I don't know"), alice);
    await engine.paste((await engine.open(bob, onNvidia(BARE_OOM)))[0]!.caseId!, 'KSampler', bob);
    await engine.open(bob, onNvidia(inNode('KSampler')));

    const { questions } = await computeStats(db);
    expect(questions.casesAsked).toBe(3);
    expect(questions.byQuestion).toEqual([
      { question: 'vendor', asked: 2, answers: { nvidia: 1, amd: 0, unknown: 1 }, typed: 0, unanswered: 0 },
      { question: 'stage', asked: 3, answers: { sampling: 2, vae: 0, loader: 0, other: 0, unknown: 0 }, typed: 1, unanswered: 1 },
    ]);
    expect(statsText(await computeStats(db), { lang: 'en', names: kbNames(kb, 'en'), seeAll: 'comfyoom stats --all' })).toMatch(/Asked before the first step, because the log could not tell: 3 cases\n {2}vendor {2}asked 2: nvidia 1 · amd 0 · don't know 1 · unanswered 0 \(typed 0\)/);
  });
});
