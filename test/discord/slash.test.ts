// /comfyoom end to end: the real discord.js client against the fake Discord, the real engine and
// kb, and a real SQLite file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { embedLength } from '../../src/adapters/discord/payload.ts';
import { relabelCommand, button, addThread, ALICE, BOB, bodyOf, callback, customIds, HELP, MOD, messageCalls, messageFrom, modalSubmit, original, postIn, press, setup, slash, textOf, threadFrom, until, webhook, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await setup();
});
afterEach(async () => {
  await h.close();
});

/** Opens a case with /comfyoom and returns the step message posted in its thread. */
async function openCase(log = onNvidia(sample('cf-0214').text)) {
  const p = slash(h, { log });
  const reply = await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
  const thread = await h.fake.waitFor(threadFrom(HELP));
  const step = await h.fake.waitFor(postIn(thread.response.id));
  await until(async () => await h.store.lastOpen('discord', ALICE.id) !== undefined && (await h.store.get((await h.store.lastOpen('discord', ALICE.id))!))!.row.thread !== null);
  return { p, reply, thread: thread.response.id as string, step: messageFrom(step), caseId: (await h.store.lastOpen('discord', ALICE.id))! };
}

describe('/comfyoom', () => {
  it('defers, diagnoses, grows a thread from its reply and posts step 1 there with buttons', async () => {
    const { p, reply, thread, step, caseId } = await openCase();
    const first = await h.fake.waitFor(callback(p));
    expect(first.body).toMatchObject({ type: 5 }); // deferred before any work
    expect(h.fake.calls.indexOf(first)).toBeLessThan(h.fake.calls.indexOf(reply));
    expect(bodyOf(reply).embeds[0].title).toBe('Out of GPU memory while sampling');
    expect(bodyOf(reply).allowed_mentions).toEqual({ parse: [], replied_user: false });

    const threadCall = h.fake.calls.find(threadFrom(HELP))!;
    expect(threadCall.path).toBe(`/channels/${HELP}/messages/${reply.response.id}/threads`);
    expect(threadCall.body).toMatchObject({ name: 'Out of GPU memory while sampling', auto_archive_duration: 1440 });
    expect(threadCall.auth).toBe(`Bot ${'fake-bot-token.for-tests-only.' + 'a'.repeat(42)}`);

    const stepCall = h.fake.calls.find(postIn(thread))!;
    // The paste says the OOM began "after updating comfy": updating or rolling back leads, of five planned up front.
    expect(textOf(stepCall)).toMatch(/Step 1 of 5: Update ComfyUI/);
    const ids = customIds(stepCall);
    expect(ids).toHaveLength(6);
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(100);
    expect(bodyOf(stepCall).allowed_mentions).toMatchObject({ parse: [] });
    expect(step.components.flatMap((r: any) => r.components.map((b: any) => b.label))).toEqual(['Worked', 'Still failing', 'Skip', 'Paste a new log', 'Stop', 'Show current step']);

    expect((await h.store.get(caseId))!.row).toMatchObject({ platform: 'discord', server: expect.any(String), channel: HELP, user_id: ALICE.id, thread, status: 'open' });
  });

  it('takes "That\'s not my problem" on the diagnosis, asks for the whole log in the thread, and lets a moderator relabel the case', async () => {
    const { reply, thread, caseId, step } = await openCase();
    const diagnosis = messageFrom(reply);
    // It stays on the diagnosis while the steps go on: answering one retires that step's buttons only.
    const skipP = press(h, step, button(h.fake.calls.find(postIn(thread))!, 's'));
    await h.fake.waitFor(webhook(skipP));
    expect(h.fake.calls.filter((c) => c.method === 'PATCH' && c.path === `/channels/${HELP}/messages/${reply.response.id}`)).toEqual([]);
    const doubtP = press(h, diagnosis, button(reply, 'm'));
    const asked = await h.fake.waitFor(webhook(doubtP));
    expect(textOf(asked)).toMatch(/Sorry, I read your log wrong.*Paste the whole console log/s);
    expect((await h.store.get(caseId))!.row.misdiagnosed).toBe('gpu-oom-sampling');
    // A stranger's press is refused privately.
    const bobP = press(h, diagnosis, button(reply, 'm'), { user: BOB });
    expect(textOf(await h.fake.waitFor(callback(bobP)))).toMatch(/Only the person who opened this case/);

    const modOnly = relabelCommand(h, caseId, 'ram-oom', { user: BOB, moderator: false });
    expect(textOf(await h.fake.waitFor(callback(modOnly)))).toMatch(/Only moderators/);
    const relabelP = relabelCommand(h, caseId, 'ram-oom', { user: MOD });
    const done = await h.fake.waitFor(callback(relabelP));
    expect(done.body).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(textOf(done)).toMatch(/now counts as "Out of system RAM/);
    expect((await h.store.get(caseId))!.row).toMatchObject({ entry: 'ram-oom', category: 'oom_cpu_ram', thread });
  });

  it('walks a case to a confirmed resolution, greying each answered step', async () => {
    const { thread, step, caseId } = await openCase();
    const failP = press(h, step, button(h.fake.calls.find(postIn(thread))!, 'f'));
    const update = await h.fake.waitFor(callback(failP));
    expect(update.body.type).toBe(7);
    const row = update.body.data.components[0].components;
    expect(row.every((b: any) => b.disabled)).toBe(true);
    expect(row.find((b: any) => b.custom_id.endsWith(':f')).style).toBe(4); // the choice stays red
    expect(row.find((b: any) => b.custom_id.endsWith(':w')).style).toBe(2);

    const ask = await h.fake.waitFor(webhook(failP));
    expect(textOf(ask)).toMatch(/What happened when you tried it/);
    const sameP = press(h, messageFrom(ask), button(ask, 'rs'));
    const step2 = await h.fake.waitFor(webhook(sameP));
    expect(textOf(step2)).toMatch(/Step 2 of/);
    const workedP = press(h, messageFrom(step2), button(step2, 'w'));
    const done = await h.fake.waitFor(webhook(workedP));
    expect(textOf(done)).toMatch(/fixed by/);
    expect(bodyOf(done).flags ?? 0).toBe(0);

    const { row: stored, state } = (await h.store.get(caseId))!;
    expect(stored).toMatchObject({ status: 'resolved', resolution: 'confirmed', resolving_step: state.plan.steps[1], thread });
    expect((await h.store.records(caseId)).map((r) => r.type)).toEqual(['opened', 'offered', 'asked_reason', 'answered', 'offered', 'answered', 'resolved']);
  });

  it("answers a stranger's click privately and records nothing; a moderator's click counts", async () => {
    const { thread, step, caseId } = await openCase();
    const before = (await h.store.records(caseId)).length;
    const bobP = press(h, step, button(h.fake.calls.find(postIn(thread))!, 'w'), { user: BOB });
    const reply = await h.fake.waitFor(callback(bobP));
    expect(reply.body).toMatchObject({ type: 4, data: { flags: 64, allowed_mentions: { parse: [] } } });
    expect(textOf(reply)).toMatch(/Only the person who opened this case/);
    expect(await h.store.records(caseId)).toHaveLength(before);
    expect((await h.store.get(caseId))!.row.status).toBe('open');

    const modP = press(h, step, button(h.fake.calls.find(postIn(thread))!, 's'), { user: MOD, moderator: true });
    expect((await h.fake.waitFor(callback(modP))).body.type).toBe(7);
    expect(textOf(await h.fake.waitFor(webhook(modP)))).toMatch(/Step 2 of/);
    expect((await h.store.records(caseId)).length).toBeGreaterThan(before);
  });

  it('answers a stale button privately and changes nothing', async () => {
    const { thread, step, caseId } = await openCase();
    const skip = button(h.fake.calls.find(postIn(thread))!, 's');
    const firstP = press(h, step, skip);
    await h.fake.waitFor(webhook(firstP));
    const events = (await h.store.records(caseId)).length;
    const again = press(h, step, skip);
    const reply = await h.fake.waitFor(callback(again));
    expect(reply.body).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(textOf(reply)).toMatch(/earlier question.*step 2 of/is);
    expect(await h.store.records(caseId)).toHaveLength(events);
  });

  it('runs a case started inside a thread (a forum post) in that thread', async () => {
    const thread = addThread(h, HELP);
    const p = slash(h, { log: onNvidia(sample('cf-0214').text), channel: thread });
    const step = await h.fake.waitFor((c) => webhook(p)(c) && c.method === 'POST');
    expect(textOf(step)).toMatch(/Step 1 of/);
    expect(h.fake.calls.some((c) => c.path.endsWith('/threads'))).toBe(false);
    expect(h.fake.calls.some((c) => textOf(c).includes("can't open a thread"))).toBe(false);
    expect((await h.store.get((await h.store.lastOpen('discord', ALICE.id))!))!.row).toMatchObject({ channel: thread, thread });
  });

  it('answers in Chinese for a zh-CN user', async () => {
    const p = slash(h, { log: onNvidia(sample('cf-0214').text), locale: 'zh-CN' });
    const reply = await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
    expect(bodyOf(reply).embeds[0].title).toMatch(/[\u4e00-\u9fff]/);
    const thread = await h.fake.waitFor(threadFrom(HELP));
    const step = await h.fake.waitFor(postIn(thread.response.id));
    expect(textOf(step)).toMatch(/第 1 步/);
    expect(step.body.components[0].components[0].label).toBe('解决了');
  });

  it('gives a non-OOM paste the near-miss answer', async () => {
    const p = slash(h, { log: sample('cf-0069').text });
    const reply = await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
    expect(textOf(reply)).toMatch(/mat1\/mat2/);
    expect(textOf(reply)).toMatch(/not a memory problem/);
    // Ids and raw confidences are for moderators, not the user.
    expect(textOf(reply)).not.toMatch(/not_oom|oom_gpu|confidence \d/);
  });

  it('uploads the hand-over summary as a file when the steps run out', async () => {
    const { thread, step, caseId } = await openCase(sample('cf-0069').text);
    let message = step;
    let call = h.fake.calls.find(postIn(thread))!;
    for (let guard = 0; guard < 5 && !call.files.length; guard++) {
      const p = press(h, message, button(call, 's'));
      call = await h.fake.waitFor(webhook(p));
      message = messageFrom(call);
    }
    expect(call.files).toEqual([expect.objectContaining({ field: 'files[0]', name: `comfyoom-${caseId}.md` })]);
    expect(call.files[0]!.text).toMatch(new RegExp(`# ComfyOOM case ${caseId}`));
    expect(call.body).toMatchObject({ attachments: [{ id: '0' }], allowed_mentions: { parse: [] } });
    expect(textOf(call)).toMatch(/no more steps/);
    expect((await h.store.get(caseId))!.row.status).toBe('escalated');
  });

  it('opens a modal when given nothing, and diagnoses a near-4000-character paste from it within limits', async () => {
    const p = slash(h);
    const modal = await h.fake.waitFor(callback(p));
    expect(modal.body.type).toBe(9);
    expect(modal.body.data.title).toBe('ComfyOOM: paste your error');
    const input = modal.body.data.components[0].component;
    expect(input).toMatchObject({ type: 4, style: 2, custom_id: 'log', max_length: 4000, required: true });

    const filler = 'Prompt executed in 3.21 seconds\ngot prompt\n';
    const tail = onNvidia(sample('cf-0009').text);
    const log = (filler.repeat(200).slice(0, 3990 - tail.length - 1) + '\n' + tail).slice(0, 3990);
    expect(log.length).toBeGreaterThan(3900);
    const submit = modalSubmit(h, modal.body.data.custom_id, log);
    expect((await h.fake.waitFor(callback(submit))).body.type).toBe(5);
    const reply = await h.fake.waitFor((c) => original(submit)(c) && c.method === 'PATCH');
    expect(bodyOf(reply).embeds[0].title).toMatch(/VAE/);
    const thread = await h.fake.waitFor(threadFrom(HELP));
    await h.fake.waitFor(postIn(thread.response.id));
    expectWithinLimits(h);
  });

  it('reads a 300 KB log file attachment after deferring, and answers within limits', async () => {
    const noise = Array.from({ length: 6000 }, (_, i) => `[2025-01-01 12:00:${String(i % 60).padStart(2, '0')}] loaded partially 4096.0 MB, step ${i}/6000 |||||||||||`).join('\n');
    const body = `${noise}\n${onNvidia(sample('cf-0214').text)}`;
    expect(body.length).toBeGreaterThan(300_000);
    const p = slash(h, { file: { name: 'console.log', body } });
    const deferred = await h.fake.waitFor(callback(p));
    expect(deferred.body.type).toBe(5);
    const download = await h.fake.waitFor((c) => c.method === 'GET' && c.path.startsWith('/files/'));
    expect(h.fake.calls.indexOf(deferred)).toBeLessThan(h.fake.calls.indexOf(download));
    const reply = await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
    expect(bodyOf(reply).embeds[0].title).toBe('Out of GPU memory while sampling');
    const thread = await h.fake.waitFor(threadFrom(HELP));
    await h.fake.waitFor(postIn(thread.response.id));
    expectWithinLimits(h);
  });

  it('answers privately, removing the placeholder, when nothing in the input can be read', async () => {
    const p = slash(h, { file: { name: 'model.safetensors', body: Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 0, 0]) } });
    const note = await h.fake.waitFor((c) => webhook(p)(c) && c.method === 'POST');
    expect(bodyOf(note).flags).toBe(64);
    expect(textOf(note)).toMatch(/model\.safetensors is not a file type I read/);
    expect(h.fake.calls.some((c) => original(p)(c) && c.method === 'DELETE')).toBe(true);
    expect(await h.store.lastOpen('discord', ALICE.id)).toBeUndefined();
  });
});

/** Every message the bot sent or edited fits Discord's limits and pings nobody. */
function expectWithinLimits(h: Harness) {
  const sent = messageCalls(h);
  expect(sent.length).toBeGreaterThan(0);
  for (const c of sent) {
    const b = bodyOf(c);
    expect((b.content ?? '').length).toBeLessThanOrEqual(2000);
    for (const e of b.embeds ?? []) {
      expect((e.title ?? '').length).toBeLessThanOrEqual(256);
      expect((e.description ?? '').length).toBeLessThanOrEqual(4000);
      expect(embedLength(e)).toBeLessThanOrEqual(6000);
      expect(((e.description ?? '').match(/```/g) ?? []).length % 2).toBe(0);
    }
    for (const row of b.components ?? []) for (const btn of row.components ?? []) expect((btn.custom_id ?? '').length).toBeLessThanOrEqual(100);
    if (b.content !== undefined || b.embeds) expect(b.allowed_mentions).toMatchObject({ parse: [] });
  }
}
