// The question before the first step on Slack, end to end: the real Bolt app over signed HTTP,
// Web API calls to a fake Slack, cases in a real SQLite file. Buttons for the choices, a typed
// node name in the case thread, refusals for strangers and stale clicks, Chinese for zh users.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { replay } from '../../src/conversation/machine.ts';
import { BARE_OOM, onNvidia } from '../conversation/pastes.ts';
import { startFakeSlack, type ApiCall, type FakeSlack } from './fake-slack.ts';
import { ALICE, BOB, BOT_USER, blockText, clickPayload, eventCallback, fakeOptions, form, hasButtons, headerOf, HELPER, interactive, LI, newTs, post, settle, slackText, slashPayload, startBot, until, type Bot } from './harness.ts';

let fake: FakeSlack;
let bot: Bot;

beforeAll(async () => {
  fake = await startFakeSlack(fakeOptions);
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  fake.reset();
  bot = await startBot(fake);
});
afterEach(async () => {
  await settle(fake, 100);
  await bot.stop();
});

const posts = () => fake.of('chat.postMessage');
async function nthPost(n: number, what = `post #${n}`) {
  await until(() => posts().length >= n, what);
  return posts()[n - 1]!;
}
async function click(posted: ApiCall, label: string, user: string) {
  expect((await post(bot, interactive(clickPayload(fake, posted, label, user)), 'form')).status).toBe(200);
}
/** The labels of a message's buttons, without "Show current step" (on every message of a case). */
const labels = (c: ApiCall) =>
  (c.args.blocks as any[])
    .find((b) => b.type === 'actions')
    .elements.map((e: any) => e.text.text)
    .filter((l: string) => l !== 'Show current step' && l !== '显示当前步骤');
const inThread = (thread: string, user: string, text: string) => post(bot, JSON.stringify(eventCallback({ type: 'message', user, text, ts: newTs(), thread_ts: thread })), 'json');

/** Opens a case with /comfyoom; returns its thread, the question and the case id. */
async function openCase(log: string, user = ALICE) {
  await post(bot, form(slashPayload(fake, user, slackText(log))), 'form');
  const thread = (await nthPost(1, 'the diagnosis')).result.ts as string;
  const question = await nthPost(2, 'the question');
  return { thread, question, caseId: (await bot.store.caseInThread('slack', thread))! };
}

describe('the question before the first step, on Slack', () => {
  it('asks NVIDIA or AMD, then the node, with buttons, and re-plans on the answers', async () => {
    const { thread, question, caseId } = await openCase(BARE_OOM);
    expect(question.args.thread_ts).toBe(thread);
    expect(blockText(question)).toMatch(/NVIDIA, or AMD \(ROCm\/ZLUDA\)\?/);
    expect(labels(question)).toEqual(['NVIDIA', 'AMD (ROCm/ZLUDA)', "I don't know", 'Stop']);

    await click(question, 'NVIDIA', ALICE);
    const answered = await fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === question.result.ts, 'the answered question');
    expect(hasButtons(answered)).toBe(false);
    expect(blockText(answered)).toContain('NVIDIA');
    expect(blockText(await nthPost(3))).toMatch(/Got it: NVIDIA/);
    const stage = await nthPost(4, 'the stage question');
    expect(stage.args.thread_ts).toBe(thread);
    expect(labels(stage)).toEqual(['Sampler (KSampler, SamplerCustom, WanVideoSampler...)', 'VAE Decode/Encode', 'A loader (checkpoint, UNet, CLIP)', 'An upscaler, detailer or other node', "I don't know", 'Stop']);

    await click(stage, 'A loader (checkpoint, UNet, CLIP)', ALICE);
    expect(blockText(await nthPost(5))).toMatch(/So this is: Out of GPU memory while loading/);
    expect(headerOf(await nthPost(6, 'step 1'))).toMatch(/^Step 1 of/);
    const { row, state } = (await bot.store.get(caseId))!;
    expect(row).toMatchObject({ entry: 'gpu-oom-model-load', category: 'oom_gpu_model_load' });
    expect(JSON.parse(row.facts)).toMatchObject({ gpuVendor: 'nvidia', stage: 'model_load' });
    expect(replay(await bot.store.records(caseId))).toEqual(state);
  });

  it("refuses a stranger's and a stale click privately, changing nothing; a helper's counts", async () => {
    const { question, caseId } = await openCase(onNvidia(BARE_OOM));
    await click(question, 'VAE Decode/Encode', BOB);
    const stranger = await fake.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.user === BOB, 'the stranger note');
    expect(blockText(stranger)).toMatch(/Only the person who opened this case.*current question is: Which node was running/);
    expect((await bot.store.records(caseId)).map((r) => r.type)).toEqual(['opened', 'asked']);

    await click(question, "I don't know", HELPER);
    expect(headerOf(await nthPost(4, 'step 1'))).toMatch(/^Step 1 of/);
    const events = (await bot.store.records(caseId)).length;
    await click(question, 'VAE Decode/Encode', ALICE);
    const stale = await fake.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.user === ALICE, 'the stale note');
    expect(blockText(stale)).toMatch(/earlier question/);
    expect(await bot.store.records(caseId)).toHaveLength(events);
    expect((await bot.store.get(caseId))!.row.entry).toBe('gpu-oom-other');
  });

  it("takes the node's name typed in the case thread by its owner, and no one else's", async () => {
    const { thread, question, caseId } = await openCase(onNvidia(BARE_OOM));
    await inThread(thread, BOB, 'KSampler');
    await inThread(thread, ALICE, 'thanks, let me check');
    const hint = await fake.waitFor((c) => c.method === 'chat.postEphemeral', 'the hint');
    expect(hint.args).toMatchObject({ user: ALICE, thread_ts: thread });
    expect(blockText(hint)).toMatch(/could not read `thanks, let me check` as an answer/);
    expect(posts()).toHaveLength(2);

    await inThread(thread, ALICE, 'VAEDecode');
    expect(blockText(await nthPost(3))).toMatch(/Got it: VAEDecode\. So this is: Out of GPU memory in VAE/);
    expect(headerOf(await nthPost(4))).toMatch(/^Step 1 of/);
    // The question's buttons went when the case moved on.
    await fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === question.result.ts && !hasButtons(c), 'the retired question');
    expect((await bot.store.records(caseId)).filter((r) => r.type === 'clarified')).toEqual([expect.objectContaining({ choice: 'vae', typed: true, node: 'VAEDecode' })]);
  });

  it('takes the answer in a mention in the case thread too', async () => {
    const { thread, caseId } = await openCase(BARE_OOM);
    await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', user: ALICE, text: `<@${BOT_USER}> AMD`, ts: newTs(), thread_ts: thread })), 'json');
    expect(headerOf(await nthPost(4, 'step 1 of the AMD plan'))).toMatch(/^Step 1 of/);
    expect((await bot.store.get(caseId))!.row.entry).toBe('amd-hip-oom');
  });

  it('asks in Chinese for a zh-CN Slack locale', async () => {
    const { question } = await openCase(BARE_OOM, LI);
    expect(blockText(question)).toMatch(/你的显卡是 NVIDIA，还是 AMD/);
    expect(labels(question)).toEqual(['NVIDIA（英伟达）', 'AMD（ROCm/ZLUDA）', '不知道', '结束']);
  });
});
