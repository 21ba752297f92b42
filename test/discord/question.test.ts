// The question before the first step on Discord, end to end: the real discord.js client against
// the fake Discord, the real engine and kb, a real SQLite file. Buttons for the choices, a typed
// node name in the case thread, refusals for strangers and stale clicks, Chinese for zh users.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replay } from '../../src/conversation/machine.ts';
import { BARE_OOM, onNvidia } from '../conversation/pastes.ts';
import type { Call } from './fake-discord.ts';
import { button, ALICE, BOB, callback, HELP, messageFrom, MOD, postIn, press, say, setup, slash, textOf, threadFrom, until, webhook, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await setup();
});
afterEach(async () => {
  await h.close();
});

/** Opens a case with /comfyoom and returns the question posted in its thread. */
async function openCase(log: string, locale?: string) {
  slash(h, { log, ...(locale ? { locale } : {}) });
  const thread = (await h.fake.waitFor(threadFrom(HELP))).response.id as string;
  const question = await h.fake.waitFor(postIn(thread));
  const caseId = (await h.store.lastOpen('discord', ALICE.id))!;
  await until(async () => (await h.store.get(caseId))!.row.thread === thread);
  return { thread, question, caseId };
}

/** The labels of a message's buttons, without "Show current step" (on every message of a case). */
const labels = (c: Call) => c.body.components.flatMap((r: any) => r.components.map((b: any) => b.label)).filter((l: string) => l !== 'Show current step' && l !== '显示当前步骤');
/** The first message a press posted whose text matches. */
const followUp = (p: { token: string }, re: RegExp) => h.fake.waitFor((c) => webhook(p)(c) && c.method === 'POST' && re.test(textOf(c)));

describe('the question before the first step, on Discord', () => {
  it('asks NVIDIA or AMD, then the node, with buttons, and re-plans on the answers', async () => {
    const { question, caseId } = await openCase(BARE_OOM);
    expect(textOf(question)).toMatch(/NVIDIA, or AMD \(ROCm\/ZLUDA\)\?/);
    expect(labels(question)).toEqual(['NVIDIA', 'AMD (ROCm/ZLUDA)', "I don't know", 'Stop']);

    const nvidia = press(h, messageFrom(question), button(question, 'vn'));
    const update = await h.fake.waitFor(callback(nvidia));
    expect(update.body.type).toBe(7);
    const [answered, ...live] = [update.body.data.components[0].components.filter((b: any) => b.label !== 'Show current step'), update.body.data.components[0].components.filter((b: any) => b.label === 'Show current step')];
    expect(answered.every((b: any) => b.disabled)).toBe(true);
    expect(live.flat().map((b: any) => b.disabled ?? false)).toEqual([false]);
    await followUp(nvidia, /Got it: NVIDIA/);
    const stage = await followUp(nvidia, /Which node was running/);
    expect(labels(stage)).toEqual(['Sampler (KSampler, SamplerCustom, WanVideoSampler...)', 'VAE Decode/Encode', 'A loader (checkpoint, UNet, CLIP)', 'An upscaler, detailer or other node', "I don't know", 'Stop']);

    const sampler = press(h, messageFrom(stage), button(stage, 'ss'));
    await followUp(sampler, /So this is: Out of GPU memory while sampling/);
    const step = await followUp(sampler, /Step 1 of/);
    expect(labels(step)).toEqual(['Worked', 'Still failing', 'Skip', 'Paste a new log', 'Stop']);
    const { row, state } = (await h.store.get(caseId))!;
    expect(row).toMatchObject({ entry: 'gpu-oom-sampling', category: 'oom_gpu_sampling' });
    expect(JSON.parse(row.facts)).toMatchObject({ gpuVendor: 'nvidia', stage: 'sampling' });
    expect(replay(await h.store.records(caseId))).toEqual(state);
  });

  it("refuses a stranger's and a stale click privately, changing nothing; a moderator's counts", async () => {
    const { question, caseId } = await openCase(onNvidia(BARE_OOM));
    const bob = press(h, messageFrom(question), button(question, 'ss'), { user: BOB });
    const refusal = await h.fake.waitFor(callback(bob));
    expect(refusal.body).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(textOf(refusal)).toMatch(/Only the person who opened this case.*current question is: Which node was running/s);
    expect((await h.store.records(caseId)).map((r) => r.type)).toEqual(['opened', 'asked']);

    const mod = press(h, messageFrom(question), button(question, 'sv'), { user: MOD, moderator: true });
    await followUp(mod, /Step 1 of/);
    const events = (await h.store.records(caseId)).length;
    const stale = press(h, messageFrom(question), button(question, 'ss'));
    const note = await h.fake.waitFor(callback(stale));
    expect(note.body).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(textOf(note)).toMatch(/earlier question/);
    expect(await h.store.records(caseId)).toHaveLength(events);
    expect((await h.store.get(caseId))!.row.entry).toBe('gpu-oom-vae');
  });

  it("takes the node's name typed in the case thread by its owner, and no one else's", async () => {
    const { thread, caseId } = await openCase(onNvidia(BARE_OOM));
    const from = h.fake.calls.length;
    say(h, thread, BOB, 'KSampler');
    const chat = say(h, thread, ALICE, 'thanks, let me check');
    const hint = await h.fake.waitFor((c) => c.method === 'POST' && c.body?.message_reference?.message_id === chat.id, { from });
    expect(textOf(hint)).toMatch(/could not read `thanks, let me check` as an answer/);
    // Echoed as code and redacted: a masked link stays text, a token is not repeated in public.
    const token = 'hf_' + 'kQ7mZp2XvR9tLw4YbN8cHd3JfG6sAe5Uq1';
    const bait = say(h, thread, ALICE, `see [Free Nitro](https://evil.example/claim) ${token}`);
    const echo = await h.fake.waitFor((c) => c.method === 'POST' && c.body?.message_reference?.message_id === bait.id, { from });
    expect(textOf(echo)).toMatch(/could not read `see \[Free Nitro\]\(https:\/\/evil\.example\/claim\) <api-key>` as an answer/);
    expect(textOf(echo)).not.toContain('kQ7mZp2X');
    say(h, thread, ALICE, 'KSampler');
    const answer = await h.fake.waitFor((c) => postIn(thread)(c) && /Got it: KSampler/.test(textOf(c)), { from });
    expect(textOf(answer)).toMatch(/Out of GPU memory while sampling/);
    await h.fake.waitFor((c) => postIn(thread)(c) && /Step 1 of/.test(textOf(c)), { from });
    expect((await h.store.records(caseId)).filter((r) => r.type === 'clarified')).toEqual([expect.objectContaining({ choice: 'sampling', typed: true, node: 'KSampler' })]);
  });

  it('asks in Chinese for a zh-CN user', async () => {
    const { question } = await openCase(onNvidia(BARE_OOM), 'zh-CN');
    expect(textOf(question)).toMatch(/出错时正在运行的是哪个节点/);
    expect(labels(question)).toEqual(['采样器（KSampler、SamplerCustom、WanVideoSampler…）', 'VAE 解码/编码', '加载器（checkpoint、UNet、CLIP）', '放大、修脸或其他节点', '不知道', '结束']);
  });
});
