// Discord realities: rate limits, server errors, missing permissions, channels without threads, a
// restart in the middle of a case. None of them may crash the bot or lose the case.
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/conversation/render.ts';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { addThread, ALICE, BOT, bodyOf, callback, customIds, HELP, messageFrom, original, postIn, press, say, setup, slash, textOf, threadFrom, until, VOICE, webhook, type Harness } from './harness.ts';

let h: Harness;
afterEach(async () => {
  await h.close();
});

const engineMessage = (text: string): Message => ({ blocks: [{ kind: 'text', text }] });
const openCaseId = async () => await h.store.lastOpen('discord', ALICE.id);
const followUps = (p: { token: string }) => h.fake.calls.filter((c) => webhook(p)(c) && c.method === 'POST' && c.status === 200);

describe('Discord failures', () => {
  it('retries a 429 on thread creation (discord.js honours retry-after) and goes on', async () => {
    h = await setup();
    h.fake.fail({ method: 'POST', path: /\/messages\/\d+\/threads$/, status: 429 });
    slash(h, { log: onNvidia(sample('cf-0214').text) });
    const thread = await h.fake.waitFor((c) => threadFrom(HELP)(c) && c.status === 200);
    const attempts = h.fake.calls.filter(threadFrom(HELP));
    expect(attempts.map((c) => c.status)).toEqual([429, 200]);
    await h.fake.waitFor(postIn(thread.response.id));
    await until(async () => (await h.store.get((await openCaseId())!))?.row.thread === thread.response.id);
  });

  it('keeps the case when Discord answers 500: the diagnosis goes out as a follow-up and the buttons work', async () => {
    h = await setup();
    h.fake.fail({ method: 'PATCH', path: /\/messages\/@original$/, status: 500, times: 4 });
    const p = slash(h, { log: onNvidia(sample('cf-0214').text) });
    await until(() => followUps(p).length >= 2);
    const caseId = (await openCaseId())!;
    expect((await h.store.records(caseId)).map((r) => r.type)).toEqual(['opened', 'offered']);
    expect(h.fake.calls.filter((c) => original(p)(c) && c.method === 'PATCH').map((c) => c.status)).toEqual([500, 500, 500, 500]);
    expect(h.logs.some((l) => l.includes(`case ${caseId} failed`))).toBe(true);
    const [diagnosis, step] = followUps(p);
    expect(bodyOf(diagnosis!).embeds[0].title).toBe('Out of GPU memory while sampling');

    const next = press(h, messageFrom(step!), customIds(step!).find((id) => id.endsWith(':s'))!);
    expect(textOf(await h.fake.waitFor(webhook(next)))).toMatch(/Step 2 of/);
  });

  it('survives a 500 on every follow-up of a press: the answer is recorded and the bot keeps answering', async () => {
    h = await setup();
    slash(h, { log: onNvidia(sample('cf-0214').text) });
    const thread = await h.fake.waitFor(threadFrom(HELP));
    const stepCall = await h.fake.waitFor(postIn(thread.response.id));
    const caseId = (await openCaseId())!;
    h.fake.fail({ method: 'POST', path: /^\/webhooks\//, status: 500, times: 4 });
    const p = press(h, messageFrom(stepCall), customIds(stepCall).find((id) => id.endsWith(':s'))!);
    await until(() => h.logs.some((l) => l.startsWith(`interaction ${p.id} failed`)));
    expect((await h.store.records(caseId)).map((r) => r.type)).toEqual(['opened', 'offered', 'answered', 'offered']);
    expect((await h.store.get(caseId))!.state.index).toBe(1);

    // The step the failed follow-up carried is one mention away.
    const from = h.fake.calls.length;
    say(h, thread.response.id, ALICE, `<@${BOT}>`);
    const repeated = await h.fake.waitFor(postIn(thread.response.id), { from });
    expect(textOf(repeated)).toMatch(/Step 2 of/);
    expect(customIds(repeated)).toHaveLength(6);
  });

  it('falls back to the channel, and says so once, when thread creation is refused (403)', async () => {
    h = await setup();
    h.fake.fail({ method: 'POST', path: /\/threads$/, status: 403, code: 50013 });
    const p = slash(h, { log: onNvidia(sample('cf-0214').text) });
    await until(() => followUps(p).length >= 2);
    const [note, step] = followUps(p);
    expect(textOf(note!)).toBe("I can't open a thread here, so I'll continue in this channel.");
    expect(textOf(step!)).toMatch(/Step 1 of/);
    expect(h.fake.calls.filter((c) => textOf(c).includes("can't open a thread"))).toHaveLength(1);
    expect(h.logs.some((l) => l.startsWith(`no permission to open a thread in ${HELP}`))).toBe(true);
    expect((await h.store.get((await openCaseId())!))!.row.thread).toBeNull();

    const next = press(h, messageFrom(step!), customIds(step!).find((id) => id.endsWith(':s'))!);
    expect(textOf(await h.fake.waitFor(webhook(next)))).toMatch(/Step 2 of/);
  });

  it('falls back to the channel when it may open a thread but not post in it', async () => {
    h = await setup();
    h.fake.fail({ method: 'POST', path: /^\/channels\/\d+\/messages$/, status: 403, code: 50001 });
    const p = slash(h, { log: onNvidia(sample('cf-0214').text) });
    await until(() => followUps(p).length >= 2);
    expect(followUps(p).map(textOf).join('\n')).toMatch(/continue in this channel[\s\S]*Step 1 of/);
    expect((await h.store.get((await openCaseId())!))!.row.thread).toBeNull();
  });

  it('does not try a thread where Discord has none (a voice channel chat) and continues there', async () => {
    h = await setup();
    const p = slash(h, { log: onNvidia(sample('cf-0214').text), channel: VOICE });
    await until(() => followUps(p).length >= 2);
    expect(h.fake.calls.some((c) => c.path.endsWith('/threads'))).toBe(false);
    expect(textOf(followUps(p)[1]!)).toMatch(/Step 1 of/);
  });

  it('opens the case without Send Messages: interaction replies and the thread need none of it (row 9)', async () => {
    h = await setup();
    const perms = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.CreatePublicThreads | PermissionFlagsBits.SendMessagesInThreads;
    const p = slash(h, { log: onNvidia(sample('cf-0214').text), appPermissions: perms });
    expect((await h.fake.waitFor(callback(p))).body.type).toBe(5);
    const thread = await h.fake.waitFor(threadFrom(HELP));
    expect(textOf(await h.fake.waitFor(postIn(thread.response.id)))).toMatch(/Step 1 of/);
    expect(await openCaseId()).toBeDefined();
  });

  it('runs a case in a thread where it may not post messages, through interaction replies', async () => {
    h = await setup();
    const thread = addThread(h, HELP);
    const p = slash(h, { log: onNvidia(sample('cf-0214').text), channel: thread, appPermissions: PermissionFlagsBits.ViewChannel, locale: 'zh-CN' });
    const step = await h.fake.waitFor((c) => webhook(p)(c) && c.method === 'POST');
    expect(textOf(step)).toMatch(/第 1 步/);
  });

  it('sends the per-user rate limit note privately', async () => {
    h = await setup({ ratePerMinute: 1 });
    slash(h, { log: onNvidia(sample('cf-0214').text) });
    await h.fake.waitFor(threadFrom(HELP));
    const second = slash(h, { log: onNvidia(sample('cf-0009').text) });
    const note = await h.fake.waitFor((c) => webhook(second)(c) && c.method === 'POST');
    expect(bodyOf(note).flags).toBe(64);
    expect(textOf(note)).toMatch(/faster than I can help/);
    expect(h.fake.calls.some((c) => original(second)(c) && c.method === 'DELETE')).toBe(true);
  });

  it('continues a case after a restart: the old step button and the case thread still work', async () => {
    h = await setup();
    slash(h, { log: onNvidia(sample('cf-0214').text) });
    const thread = (await h.fake.waitFor(threadFrom(HELP))).response.id as string;
    const stepCall = await h.fake.waitFor(postIn(thread));
    const caseId = (await openCaseId())!;
    await until(async () => (await h.store.get(caseId))!.row.thread === thread);

    await h.restart();
    const p = press(h, messageFrom(stepCall), customIds(stepCall).find((id) => id.endsWith(':f'))!);
    expect((await h.fake.waitFor(callback(p))).body.type).toBe(7);
    const ask = await h.fake.waitFor(webhook(p));
    expect(textOf(ask)).toMatch(/What happened when you tried it/);
    const q = press(h, messageFrom(ask), customIds(ask).find((id) => id.endsWith(':rd'))!);
    expect(textOf(await h.fake.waitFor(webhook(q)))).toMatch(/Paste the new error/);

    // The owner's next log in the thread is read as the case's new log, by the new process.
    const from = h.fake.calls.length;
    say(h, thread, ALICE, onNvidia(sample('cf-0009').text));
    const answer = await h.fake.waitFor(postIn(thread), { from });
    expect(textOf(answer)).toMatch(/Progress|VAE/);
    expect((await h.store.records(caseId)).map((r) => r.type)).toContain('log_pasted');
  });

  it('delivers engine notices (idle sweep) into the case thread', async () => {
    h = await setup();
    slash(h, { log: onNvidia(sample('cf-0214').text) });
    const thread = (await h.fake.waitFor(threadFrom(HELP))).response.id as string;
    await h.fake.waitFor(postIn(thread));
    const caseId = (await openCaseId())!;
    await until(async () => (await h.store.get(caseId))!.row.thread === thread);
    const from = h.fake.calls.length;
    await h.bot.deliver((await h.store.get(caseId))!.row, [engineMessage('This case was closed after a long time without an answer.'), { ...engineMessage('private'), ephemeral: true }]);
    const sent = h.fake.calls.slice(from).filter(postIn(thread));
    expect(sent.map(textOf)).toEqual(['This case was closed after a long time without an answer.']);
    expect(bodyOf(sent[0]!).allowed_mentions).toMatchObject({ parse: [] });
  });
});
