// Tracebacks pasted as messages: a reply that mentions the bot, the "Diagnose with ComfyOOM"
// context menu, watch mode, and new logs posted in a case's thread.
import { afterEach, describe, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import {
  ALICE,
  BOB,
  BOT,
  bodyOf,
  callback,
  contextMenu,
  customIds,
  HELP,
  messageCalls,
  messageFrom,
  original,
  postIn,
  press,
  say,
  setup,
  slash,
  textOf,
  threadFrom,
  until,
  WATCHED,
  webhook,
  type Harness,
} from './harness.ts';

let h: Harness;
afterEach(async () => {
  await h.close();
});

const replyTo = (id: string) => (c: { body: any; method: string; path: string }) => c.method === 'POST' && c.body?.message_reference?.message_id === id;

describe('a reply that mentions the bot', () => {
  it("diagnoses the replied-to traceback, in a thread, as the traceback owner's case", async () => {
    h = await setup();
    const traceback = say(h, HELP, ALICE, `my vae keeps dying:\n\`\`\`\n${onNvidia(sample('cf-0009').text)}\n\`\`\``);
    const ask = say(h, HELP, BOB, `<@${BOT}> can you look at this?`, { message_reference: { message_id: traceback.id, channel_id: HELP, guild_id: undefined }, type: 19 });
    const reply = await h.fake.waitFor(replyTo(traceback.id));
    expect(reply.path).toBe(`/channels/${HELP}/messages`);
    expect(bodyOf(reply).embeds[0].title).toMatch(/VAE/);
    expect(bodyOf(reply).allowed_mentions).toEqual({ parse: [], replied_user: false });
    const thread = await h.fake.waitFor(threadFrom(HELP));
    expect(thread.path).toBe(`/channels/${HELP}/messages/${reply.response.id}/threads`);
    await h.fake.waitFor(postIn(thread.response.id));
    const caseId = (await h.store.lastOpen('discord', ALICE.id))!;
    expect((await h.store.get(caseId))!.row).toMatchObject({ user_id: ALICE.id, category: 'oom_gpu_vae' });
    expect(h.fake.calls.some(replyTo(ask.id))).toBe(false);
  });

  it('says so when the replied-to message holds no traceback', async () => {
    h = await setup();
    const chat = say(h, HELP, ALICE, 'anyone tried the new Flux model?');
    const ask = say(h, HELP, BOB, `<@${BOT}> what about this`, { message_reference: { message_id: chat.id, channel_id: HELP } });
    const reply = await h.fake.waitFor(replyTo(ask.id));
    expect(textOf(reply)).toMatch(/^I found no error in that, so I haven't opened a case/);
    expect(await h.store.lastOpen('discord', ALICE.id)).toBeUndefined();
  });

  it('never pings: a pasted @everyone (here in a file name that the answer repeats) stays inert', async () => {
    h = await setup();
    const ask = say(h, HELP, ALICE, `<@${BOT}> @everyone @here <@${BOB.id}> ${onNvidia(sample('cf-0214').text)}`, {
      attachments: [{ id: '1500000000000000001', filename: '@everyone.zip', size: 4, url: h.fake.serveFile('e/@everyone.zip', 'PK..', 'application/zip'), proxy_url: 'x', content_type: 'application/zip' }],
    });
    const note = await h.fake.waitFor((c) => replyTo(ask.id)(c) && textOf(c).includes('@everyone.zip'));
    expect(bodyOf(note).allowed_mentions).toEqual({ parse: [], replied_user: false });
    const thread = await h.fake.waitFor(threadFrom(HELP));
    await h.fake.waitFor(postIn(thread.response.id));
    for (const c of messageCalls(h)) expect(bodyOf(c).allowed_mentions, `${c.method} ${c.path}`).toMatchObject({ parse: [] });
  });
});

describe('the "Diagnose with ComfyOOM" context menu', () => {
  it('diagnoses the target message for its author', async () => {
    h = await setup();
    const traceback = say(h, HELP, ALICE, onNvidia(sample('cf-0214').text));
    const p = contextMenu(h, traceback, { user: BOB });
    expect((await h.fake.waitFor(callback(p))).body.type).toBe(5);
    const reply = await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
    expect(bodyOf(reply).embeds[0].title).toBe('Out of GPU memory while sampling');
    const thread = await h.fake.waitFor(threadFrom(HELP));
    const step = await h.fake.waitFor(postIn(thread.response.id));
    expect(await h.store.lastOpen('discord', ALICE.id)).toBeDefined();

    // Bob asked, but it is Alice's case: his click is refused privately.
    const bobClick = press(h, messageFrom(step), customIds(step)[0]!, { user: BOB });
    expect((await h.fake.waitFor(callback(bobClick))).body.data.flags).toBe(64);
  });

  it('answers privately on a message without a traceback', async () => {
    h = await setup();
    const p = contextMenu(h, say(h, HELP, ALICE, 'good morning!'));
    expect((await h.fake.waitFor(callback(p))).body.type).toBe(5);
    const note = await h.fake.waitFor((c) => webhook(p)(c) && c.method === 'POST');
    expect(bodyOf(note).flags).toBe(64);
    expect(textOf(note)).toMatch(/^I found no error in that/);
    await h.fake.waitFor((c) => original(p)(c) && c.method === 'DELETE');
  });
});

describe('watch mode', () => {
  it('stays silent on chat, on non-OOM errors and outside watched channels; offers one button on an OOM', async () => {
    h = await setup({ watchChannels: [WATCHED] });
    const chat = say(h, WATCHED, BOB, 'has anyone got Wan 2.2 running on 8 GB?');
    const notOom = say(h, WATCHED, BOB, sample('cf-0069').text);
    const elsewhere = say(h, HELP, BOB, onNvidia(sample('cf-0214').text));
    const oom = say(h, WATCHED, ALICE, onNvidia(sample('cf-0214').text));
    const offer = await h.fake.waitFor(replyTo(oom.id));
    expect(textOf(offer)).toMatch(/looks like a ComfyUI out-of-memory error/);
    expect(customIds(offer)).toEqual([`coomw:${oom.id}:${ALICE.id}`]);
    expect(bodyOf(offer).allowed_mentions).toEqual({ parse: [], replied_user: false });
    for (const quiet of [chat, notOom, elsewhere]) expect(h.fake.calls.some(replyTo(quiet.id))).toBe(false);
    expect(h.fake.calls.filter((c) => c.method === 'POST' && c.path.startsWith('/channels/'))).toHaveLength(1);
    expect(await h.store.lastOpen('discord', ALICE.id)).toBeUndefined(); // an offer, not a case
  });

  it("opens the case when the poster accepts the offer; others are told it isn't theirs", async () => {
    h = await setup({ watchChannels: [WATCHED] });
    const oom = say(h, WATCHED, ALICE, onNvidia(sample('cf-0214').text));
    const offer = messageFrom(await h.fake.waitFor(replyTo(oom.id)));
    const id = offer.components[0].components[0].custom_id as string;

    const bobClick = press(h, offer, id, { user: BOB });
    const refusal = await h.fake.waitFor(callback(bobClick));
    expect(refusal.body).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(textOf(refusal)).toMatch(/for the person who posted the error/);

    const click = press(h, offer, id, { user: ALICE });
    // The offer's button goes with the acknowledgement itself, so a second click finds none.
    const cleared = await h.fake.waitFor(callback(click));
    expect(cleared.body).toMatchObject({ type: 7, data: { components: [] } });
    const diagnosis = await h.fake.waitFor((c) => webhook(click)(c) && c.method === 'POST');
    expect(bodyOf(diagnosis).embeds[0].title).toBe('Out of GPU memory while sampling');
    const thread = await h.fake.waitFor(threadFrom(WATCHED));
    expect(thread.path).toBe(`/channels/${WATCHED}/messages/${diagnosis.response.id}/threads`);
    await h.fake.waitFor(postIn(thread.response.id));
    expect(await h.store.lastOpen('discord', ALICE.id)).toBeDefined();
  });
});

describe('logs posted where a case runs', () => {
  it("takes the owner's traceback in the case thread as a new log, their words as words, and ignores others' posts", async () => {
    h = await setup();
    slash(h, { log: onNvidia(sample('cf-0214').text) });
    const thread = (await h.fake.waitFor(threadFrom(HELP))).response.id as string;
    await h.fake.waitFor(postIn(thread));
    const caseId = (await h.store.lastOpen('discord', ALICE.id))!;
    await until(async () => (await h.store.get(caseId))!.row.thread === thread);
    const events = (await h.store.records(caseId)).length;

    const chatFrom = h.fake.calls.length;
    say(h, thread, ALICE, 'thanks, trying it now');
    expect(textOf(await h.fake.waitFor(postIn(thread), { from: chatFrom }))).toMatch(/Take your time/);
    const from = h.fake.calls.length;
    say(h, thread, BOB, onNvidia(sample('cf-0009').text));
    say(h, thread, ALICE, onNvidia(sample('cf-0009').text));
    const answer = await h.fake.waitFor(postIn(thread), { from });
    expect(textOf(answer)).toMatch(/Progress/);
    const types = (await h.store.records(caseId)).slice(events).map((r) => r.type);
    expect(types.filter((t) => t === 'log_pasted')).toHaveLength(1);
    expect(types).toContain('plan_switched');

    // Mentioning the bot with a log in the case thread adds to the case too, rather than opening another.
    const next = h.fake.calls.length;
    say(h, thread, ALICE, `<@${BOT}> now this:\n${onNvidia(sample('cf-0009').text)}`);
    await until(async () => (await h.store.records(caseId)).filter((r) => r.type === 'log_pasted').length === 2);
    await h.fake.waitFor(postIn(thread), { from: next });
    expect(h.fake.calls.slice(next).some((c) => c.path.endsWith('/threads'))).toBe(false);
  });

  it('reads the next message of the owner as the asked-for log when the case runs in the channel', async () => {
    h = await setup();
    h.fake.fail({ method: 'POST', path: /\/threads$/, status: 403 });
    const p = slash(h, { log: onNvidia(sample('cf-0214').text) });
    await until(() => h.fake.calls.filter((c) => webhook(p)(c) && c.method === 'POST').length >= 2);
    const step = h.fake.calls.filter((c) => webhook(p)(c) && c.method === 'POST')[1]!;
    const newlog = press(h, messageFrom(step), customIds(step).find((id) => id.endsWith(':n'))!);
    expect(textOf(await h.fake.waitFor(webhook(newlog)))).toMatch(/Paste the new error/);

    const from = h.fake.calls.length;
    say(h, HELP, ALICE, onNvidia(sample('cf-0009').text));
    const answer = await h.fake.waitFor(postIn(HELP), { from });
    expect(textOf(answer)).toMatch(/VAE|Progress/);
  });
});
