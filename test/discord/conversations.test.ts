// Issue 12 on Discord, a busy help channel's realities, end to end against the strict fake:
// one case per conversation and per message whatever arrives twice, long pastes in watch mode,
// scoped stats, no Message Content intent, the bot's managed role, retired buttons, closing the
// loop on resolution, escalation pings, forget, DMs, Traditional Chinese for zh-TW.
import Database from 'better-sqlite3';
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BOT_PERMISSIONS } from '../../src/adapters/discord/commands.ts';
import { WITHOUT_CONTENT } from '../../src/adapters/discord/bot.ts';
import { WorkPool } from '../../src/conversation/pool.ts';
import { DEFAULT_KB_DIR } from '../../src/kb/dir.ts';
import { kb } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { snowflake, type Call } from './fake-discord.ts';
import {
  addThread,
  ALICE,
  BOB,
  BOT,
  bodyOf,
  button,
  callback,
  contextMenu,
  customIds,
  GUILD,
  HELP,
  messageFrom,
  MOD,
  original,
  postIn,
  press,
  say,
  setup,
  slash,
  statsCommand,
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

const KSAMPLER = onNvidia(sample('cf-0214').text);
const VAE = onNvidia(sample('cf-0009').text);
const cases = () => h.db.prepare('SELECT id, user_id AS user, thread, status FROM cases ORDER BY created_at').all() as { id: string; user: string; thread: string | null; status: string }[];
const replyTo = (id: string) => (c: Call) => c.method === 'POST' && c.body?.message_reference?.message_id === id;
const FORUM = '1100000000000000009';
const ROLE = '1100000000000000010';
const SOLVED = '1100000000000000011';

/** Opens Alice's case with /comfyoom in #help; returns its thread and step message. */
async function aliceCase(log = KSAMPLER) {
  slash(h, { log });
  const thread = (await h.fake.waitFor(threadFrom(HELP))).response.id as string;
  const step = await h.fake.waitFor(postIn(thread));
  const alices = () => cases().find((c) => c.user === ALICE.id);
  await until(() => alices()?.thread === thread);
  return { thread, step, caseId: alices()!.id };
}

describe('one open case per conversation (row 1)', () => {
  it("answers Bob's log in Alice's case thread privately with a button to open his own, and keeps answering Alice", async () => {
    h = await setup();
    const { thread } = await aliceCase();
    const bobs = say(h, thread, BOB, `<@${BOT}> I get this too:\n${VAE}`);
    const note = await h.fake.waitFor(replyTo(bobs.id));
    expect(textOf(note)).toMatch(/already follows someone else’s case/);
    expect(customIds(note)).toEqual([expect.stringMatching(/^coomd:/)]);
    expect(cases()).toHaveLength(1);

    // Alice's new log still gets her case's answer.
    const from = h.fake.calls.length;
    say(h, thread, ALICE, VAE);
    expect(textOf(await h.fake.waitFor(postIn(thread), { from }))).toMatch(/Progress/);

    // Only Bob's press opens it; his case starts in #help with a thread of its own.
    const alicePress = press(h, messageFrom(note), customIds(note)[0]!, { channel: thread, user: ALICE });
    expect(textOf(await h.fake.waitFor((c) => original(alicePress)(c) && c.method === 'PATCH'))).toMatch(/expired or is not yours/);
    const bobPress = press(h, messageFrom(note), customIds(note)[0]!, { channel: thread, user: BOB });
    const diagnosis = await h.fake.waitFor((c) => postIn(HELP)(c) && /VAE/.test(textOf(c)));
    const bobThread = (await h.fake.waitFor((c) => threadFrom(HELP)(c) && c.path.includes(diagnosis.response.id))).response.id as string;
    await h.fake.waitFor(postIn(bobThread));
    await until(() => cases().length === 2 && cases()[1]!.thread === bobThread);
    expect(cases()[1]).toMatchObject({ user: BOB.id, status: 'open' });
    expect(bobPress).toBeDefined();
  });

  it('refuses a second case in a forum post: the second /comfyoom gets the private button, the owner adds to hers', async () => {
    h = await setup();
    const post = addThread(h, HELP);
    const first = slash(h, { log: KSAMPLER, channel: post });
    await h.fake.waitFor((c) => webhook(first)(c) && c.method === 'POST' && /Step 1 of/.test(textOf(c)));
    const second = slash(h, { log: VAE, channel: post, user: BOB });
    const note = await h.fake.waitFor((c) => webhook(second)(c) && c.method === 'POST');
    expect(bodyOf(note).flags).toBe(64);
    expect(textOf(note)).toMatch(/already follows someone else’s case/);
    const again = slash(h, { log: VAE, channel: post });
    expect(textOf(await h.fake.waitFor((c) => original(again)(c) && c.method === 'PATCH'))).toMatch(/Progress/);
    expect(cases()).toHaveLength(1);
    expect((await h.store.records(cases()[0]!.id)).filter((r) => r.type === 'log_pasted')).toHaveLength(1);
  });
});

describe('a message opens one case, whatever arrives twice (row 2)', () => {
  it('a double click on "Diagnose it" opens one case', async () => {
    h = await setup({ watchChannels: [WATCHED] });
    const oom = say(h, WATCHED, ALICE, KSAMPLER);
    const offer = messageFrom(await h.fake.waitFor(replyTo(oom.id)));
    const id = offer.components[0].components[0].custom_id as string;
    const clicks = [press(h, offer, id), press(h, offer, id)];
    await h.fake.waitFor(threadFrom(WATCHED));
    await until(() => clicks.every((p) => h.fake.calls.some((c) => webhook(p)(c) && c.method === 'POST')));
    expect(cases()).toHaveLength(1);
    expect(h.fake.calls.filter(threadFrom(WATCHED))).toHaveLength(1);
  });

  it('the message menu used three times on one message opens one case', async () => {
    h = await setup();
    const traceback = say(h, HELP, ALICE, KSAMPLER);
    const uses = [contextMenu(h, traceback, { user: BOB }), contextMenu(h, traceback), contextMenu(h, traceback, { user: MOD, moderator: true })];
    await until(() => uses.every((p) => h.fake.calls.some((c) => (webhook(p)(c) && c.method === 'POST') || (original(p)(c) && c.method === 'PATCH'))));
    expect(cases()).toHaveLength(1);
    const notes = uses.flatMap((p) => h.fake.calls.filter((c) => webhook(p)(c) && c.method === 'POST' && /already has a case/.test(textOf(c))));
    expect(notes).toHaveLength(2);
  });

  it('links the case\'s thread when a message that already has a case is diagnosed again', async () => {
    h = await setup();
    const traceback = say(h, HELP, ALICE, KSAMPLER);
    contextMenu(h, traceback);
    const thread = (await h.fake.waitFor(threadFrom(HELP))).response.id as string;
    await until(async () => (await h.store.get(cases()[0]!.id))?.row.thread === thread);
    const again = contextMenu(h, traceback, { user: BOB });
    const note = await h.fake.waitFor((c) => webhook(again)(c) && c.method === 'POST' && /already has a case/.test(textOf(c)));
    expect(textOf(note)).toContain(`<#${thread}>`);
  });

  it('an interaction delivered again after a restart is refused by Discord and opens nothing more', async () => {
    h = await setup();
    const p = slash(h, { log: KSAMPLER });
    await h.fake.waitFor(threadFrom(HELP));
    await h.restart();
    h.fake.interact(p);
    await until(() => h.fake.calls.filter(callback(p)).length >= 2);
    expect(h.fake.calls.filter(callback(p)).map((c) => c.status).slice(0, 2)).toEqual([204, 400]);
    expect(h.fake.calls.filter(callback(p))[1]!.response).toMatchObject({ code: 40060 });
    expect(cases()).toHaveLength(1);
  });
});

describe('long pastes (row 3)', () => {
  it('watch mode reads a paste Discord turned into message.txt', async () => {
    h = await setup({ watchChannels: [WATCHED] });
    const body = `${'Prompt executed in 3.21 seconds\n'.repeat(100)}${KSAMPLER}`;
    const url = h.fake.serveFile('long/message.txt', body);
    const oom = say(h, WATCHED, ALICE, '', { attachments: [{ id: snowflake(), filename: 'message.txt', size: body.length, url, proxy_url: url, content_type: 'text/plain; charset=utf-8' }] });
    const offer = await h.fake.waitFor(replyTo(oom.id));
    expect(customIds(offer)).toEqual([`coomw:${oom.id}:${ALICE.id}`]);
  });
});

describe('limits on every way in', () => {
  it("watch mode looks at no more of one user's posts a minute than they may paste, reading none of the rest", async () => {
    h = await setup({ watchChannels: [WATCHED], ratePerMinute: 3 });
    const body = `${'Prompt executed in 3.21 seconds\n'.repeat(100)}${KSAMPLER}`;
    const posts = Array.from({ length: 12 }, (_, n) => {
      const url = h.fake.serveFile(`burst/${n}/message.txt`, body);
      return say(h, WATCHED, ALICE, '', { attachments: [{ id: snowflake(), filename: 'message.txt', size: body.length, url, proxy_url: url, content_type: 'text/plain; charset=utf-8' }] });
    });
    await until(() => h.fake.calls.filter((c) => posts.some((p) => replyTo(p.id)(c))).length >= 3);
    // Another user's post in the same minute still gets its offer: the limit is per user.
    const bobs = say(h, WATCHED, BOB, KSAMPLER);
    await h.fake.waitFor(replyTo(bobs.id));
    expect(h.fake.calls.filter((c) => posts.some((p) => replyTo(p.id)(c)))).toHaveLength(3);
    expect(h.fake.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/files/burst/'))).toHaveLength(3);
  });
});

describe('scoped stats (row 4)', () => {
  it('refuses stats to a member without Manage Messages or the helper role, whatever the server allowed the command to', async () => {
    const helpers = { id: '1400000000000000001', name: 'helpers', permissions: '0', position: 1, color: 0, hoist: false, managed: false, mentionable: true, flags: 0 };
    h = await setup({ helperRole: helpers.id, roles: [helpers] });
    const refused = statsCommand(h, undefined, { user: BOB, moderator: false });
    const answer = await h.fake.waitFor(callback(refused));
    expect(bodyOf(answer).content).toMatch(/Stats are for this server's moderators/);
    expect(bodyOf(answer).flags & 64).toBe(64);
    const helper = statsCommand(h, undefined, { user: BOB, moderator: false, roles: ['1400000000000000001'] });
    expect(textOf(await h.fake.waitFor((c) => original(helper)(c) && c.method === 'PATCH'))).toMatch(/Cases: 0/);
  });

  it("shows a server's moderators that server's cases only, and no other server's error text", async () => {
    h = await setup();
    await h.engine.open({ platform: 'discord', server: 'another-guild', user: 'x', channel: 'c' }, 'ValueError: a secret error from another guild');
    await h.engine.open({ platform: 'slack', server: 'T0', user: 'y', channel: 'C' }, KSAMPLER);
    const empty = statsCommand(h);
    const text = textOf(await h.fake.waitFor((c) => original(empty)(c) && c.method === 'PATCH'));
    expect(text).toMatch(/Cases: 0/);
    expect(text).not.toMatch(/secret error/);
    await aliceCase();
    const one = statsCommand(h);
    expect(textOf(await h.fake.waitFor((c) => original(one)(c) && c.method === 'PATCH'))).toMatch(/Cases: 1 on discord server/);
  });

  it('shows entries and steps by their titles in the moderator\'s language, kb ids only with all, as a file', async () => {
    h = await setup();
    const { caseId } = await aliceCase();
    const { entry: id } = h.db.prepare('SELECT entry FROM cases WHERE id = ?').get(caseId) as { entry: string };
    const entry = kb.entries.find((e) => e.id === id)!;
    const glance = statsCommand(h);
    const text = textOf(await h.fake.waitFor((c) => original(glance)(c) && c.method === 'PATCH'));
    expect(text).toContain(`      1  ${entry.title.en}: 0 / 0 / 0 / 0`);
    const step = /^ {11}(.+) — offered 1, none tried$/m.exec(text)?.[1];
    expect([...kb.steps.values()].map((st) => st.title.en)).toContain(step);
    expect(text).not.toContain(entry.id);
    expect(text).toMatch(/Everything: \/comfyoom-stats all: True\n```$/);

    const zh = statsCommand(h, undefined, { locale: 'zh-CN' });
    expect(textOf(await h.fake.waitFor((c) => original(zh)(c) && c.method === 'PATCH'))).toContain(`      1  ${entry.title.zh}：0 / 0 / 0 / 0`);

    const all = statsCommand(h, undefined, {}, true);
    const reply = await h.fake.waitFor((c) => original(all)(c) && c.method === 'PATCH');
    expect(reply.files.map((f) => f.name)).toEqual(['comfyoom-stats.png', 'comfyoom-stats.txt']);
    expect(reply.files[1]!.text).toContain(`      1  ${entry.title.en} (${entry.id}) [${entry.category}]: 0 / 0 / 0 / 0`);
    expect(reply.files[1]!.text).not.toMatch(/Not shown/);
  });
});

describe('without the Message Content intent (row 7)', () => {
  it('asks Discord for no privileged intent, says what is off, and still serves commands, the menu and mentions', async () => {
    h = await setup({ noMessageContent: true });
    expect(h.logs).toContain(WITHOUT_CONTENT);
    const identify = h.fake.identified.at(-1)!;
    expect(identify & (1 << 15)).toBe(0);
    expect(identify & (1 << 12)).not.toBe(0); // DMs
    const { thread } = await aliceCase();
    const mention = say(h, HELP, BOB, `<@${BOT}> ${VAE}`);
    await h.fake.waitFor(replyTo(mention.id));
    await until(() => cases().length === 2 && cases()[1]!.thread !== null);
    // A thread message without a mention arrives empty: nothing to read, no answer.
    const from = h.fake.calls.length;
    say(h, thread, ALICE, '');
    await new Promise((r) => setTimeout(r, 100));
    expect(h.fake.calls.slice(from).filter((c) => c.method === 'POST')).toEqual([]);
  });
});

describe('smaller things (row 9)', () => {
  it("takes a mention of the bot's managed role as a mention", async () => {
    h = await setup({ roles: [{ id: ROLE, name: 'ComfyOOM', permissions: '0', position: 1, color: 0, hoist: false, managed: true, mentionable: false, flags: 0, tags: { bot_id: BOT } }] });
    const m = say(h, HELP, ALICE, `<@&${ROLE}> ${KSAMPLER}`);
    await h.fake.waitFor(replyTo(m.id));
    await until(() => cases().length === 1);
  });

  it('takes the buttons off a step once the case has moved past it, leaving "Show current step"', async () => {
    h = await setup();
    const { thread, step } = await aliceCase();
    const from = h.fake.calls.length;
    say(h, thread, ALICE, VAE);
    const edit = await h.fake.waitFor((c) => c.method === 'PATCH' && c.path === `/channels/${thread}/messages/${step.response.id}`, { from });
    expect(edit.body.components.flatMap((r: any) => r.components.map((b: any) => b.label))).toEqual(['Show current step']);
  });

  it('after a press whose follow-up failed, the failure note carries "Show current step", which brings the step back', async () => {
    h = await setup();
    const { step, thread } = await aliceCase();
    h.fake.fail({ method: 'POST', path: /^\/webhooks\//, status: 500, times: 4 });
    const p = press(h, messageFrom(step), button(step, 's'));
    const note = await h.fake.waitFor((c) => webhook(p)(c) && c.status === 200 && /Show current step/.test(JSON.stringify(bodyOf(c).components ?? [])));
    expect(textOf(note)).toMatch(/Your case is saved/);
    const show = press(h, messageFrom(note), customIds(note)[0]!, { channel: thread });
    expect(textOf(await h.fake.waitFor((c) => webhook(show)(c) && c.method === 'POST'))).toMatch(/Step 2 of/);
  });

  it('in a channel without threads, chat from the owner gets no public "not a log"', async () => {
    h = await setup();
    h.fake.fail({ method: 'POST', path: /\/threads$/, status: 403 });
    const p = slash(h, { log: KSAMPLER });
    await until(() => h.fake.calls.filter((c) => webhook(p)(c) && c.method === 'POST').length >= 2);
    const step = h.fake.calls.filter((c) => webhook(p)(c) && c.method === 'POST')[1]!;
    const newlog = press(h, messageFrom(step), button(step, 'n'));
    await h.fake.waitFor(webhook(newlog));
    const from = h.fake.calls.length;
    const chat = say(h, HELP, ALICE, 'ok trying it now, thanks!');
    await new Promise((r) => setTimeout(r, 150));
    expect(h.fake.calls.slice(from).some(replyTo(chat.id))).toBe(false);
  });

  it('answers zh-TW users in Traditional Chinese', async () => {
    h = await setup();
    const p = slash(h, { log: KSAMPLER, locale: 'zh-TW' });
    const reply = await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
    expect(textOf(reply)).toMatch(/記憶體/);
    expect(textOf(reply)).not.toMatch(/[显内存这个们]/);
    expect(bodyOf(reply).embeds[0].title).toMatch(/[\u4e00-\u9fff]/);
  });

  it('asks no channel permission of an interaction beyond what its thread needs', () => {
    expect(BOT_PERMISSIONS & PermissionFlagsBits.ManageThreads).toBe(PermissionFlagsBits.ManageThreads);
  });
});

describe('what help channels expect (item 6)', () => {
  it('closes the loop on resolution: the case summary names the fix, the forum post gets "Solved", the thread is archived', async () => {
    h = await setup({ channels: [{ id: FORUM, type: 15, name: 'help-forum', available_tags: [{ id: SOLVED, name: 'Solved', moderated: false, emoji_id: null, emoji_name: null }] }] });
    const post = addThread(h, FORUM);
    const p = slash(h, { log: KSAMPLER, channel: post });
    const step = await h.fake.waitFor((c) => webhook(p)(c) && c.method === 'POST' && /Step 1 of/.test(textOf(c)));
    const worked = press(h, messageFrom(step), button(step, 'w'), { channel: post });
    expect(textOf(await h.fake.waitFor((c) => webhook(worked)(c) && c.method === 'POST'))).toMatch(/Case summary: fixed by "[^"]+"/);
    const tagged = await h.fake.waitFor((c) => c.method === 'PATCH' && c.path === `/channels/${post}` && !!c.body.applied_tags);
    expect(tagged.body.applied_tags).toEqual([SOLVED]);
    await h.fake.waitFor((c) => c.method === 'PATCH' && c.path === `/channels/${post}` && c.body.archived === true);
  });

  it('pings the helper role once, on the hand-over, and nobody else', async () => {
    h = await setup({ helperRole: ROLE });
    const { thread, step } = await aliceCase(sample('cf-0069').text);
    let call: Call = step;
    for (let guard = 0; guard < 6 && !call.files.length; guard++) {
      const p = press(h, messageFrom(call), button(call, 's'), { channel: thread });
      call = await h.fake.waitFor((c) => webhook(p)(c) && c.method === 'POST');
    }
    expect(bodyOf(call).content).toMatch(new RegExp(`^<@&${ROLE}>`));
    expect(bodyOf(call).allowed_mentions).toEqual({ parse: [], roles: [ROLE], replied_user: false });
    const pings = h.fake.calls.filter((c) => JSON.stringify(bodyOf(c).allowed_mentions ?? {}).includes(ROLE));
    expect(pings).toHaveLength(1);
  });

  it('/comfyoom-forget deletes the caller’s cases after a confirmation', async () => {
    h = await setup();
    await aliceCase();
    const ask = h.fake.interact.bind(h.fake);
    const forget = forgetCommand();
    ask(forget);
    const prompt = await h.fake.waitFor(callback(forget));
    expect(prompt.body.data.flags).toBe(64);
    expect(textOf(prompt)).toMatch(/deletes your 1 case/);
    const shown = [...h.fake.messages.values()].find((m) => JSON.stringify(m.components).includes('coomf:yes'))!;
    const confirm = press(h, shown, 'coomf:yes');
    // Acknowledged at once; the answer follows the rewrite of the database file.
    expect((await h.fake.waitFor(callback(confirm))).body.type).toBe(6);
    expect(textOf(await h.fake.waitFor(original(confirm)))).toMatch(/Deleted 1 case/);
    expect(cases()).toEqual([]);
  });

  it('answers others while a forget rewrites the database file, which runs in a worker', async () => {
    const pool = new WorkPool({ kb, kbDir: DEFAULT_KB_DIR, threads: 1 });
    try {
      h = await setup({ work: pool });
      await aliceCase();
      // A reader on an older snapshot holds up the rewrite's last step (emptying the write-ahead log) until it lets go.
      const reader = new Database(h.dbPath, { readonly: true });
      reader.exec('BEGIN');
      reader.prepare('SELECT COUNT(*) FROM cases').get();
      const forget = forgetCommand();
      h.fake.interact(forget);
      await h.fake.waitFor(callback(forget));
      const confirm = press(h, [...h.fake.messages.values()].find((m) => JSON.stringify(m.components).includes('coomf:yes'))!, 'coomf:yes');
      await h.fake.waitFor(callback(confirm));

      // Bob's command, while the forget runs: acknowledged, and his case opens once the rewrite is done.
      const bob = slash(h, { log: VAE, user: BOB });
      expect((await h.fake.waitFor(callback(bob))).status).toBe(204);
      expect(h.fake.calls.some(original(confirm))).toBe(false);
      reader.exec('COMMIT');
      reader.close();
      expect(textOf(await h.fake.waitFor(original(confirm)))).toMatch(/Deleted 1 case/);
      await until(() => cases().some((c) => c.user === BOB.id && c.thread !== null));
      expect(cases().map((c) => c.user)).toEqual([BOB.id]);
    } finally {
      await pool.close();
    }
  });

  it('answers a log sent in a DM, with the same flow, the case running in the DM', async () => {
    h = await setup();
    const dm = snowflake();
    h.fake.channels.set(dm, { id: dm, type: 1 });
    const m = h.fake.post({ channel_id: dm, channel_type: 1, guild_id: undefined, author: { ...ALICE, discriminator: '0', global_name: 'alice', avatar: null }, content: KSAMPLER });
    await h.fake.waitFor((c) => postIn(dm)(c) && /Step 1 of/.test(textOf(c)));
    expect(cases()).toEqual([expect.objectContaining({ user: ALICE.id, thread: dm })]);
    expect(m).toBeDefined();
  });

  it('reads the owner\'s typed answers in the case, mentioned or not: "still OOM" moves to the next step, "@ComfyOOM worked" resolves it; a greeting in a DM gets how to start', async () => {
    h = await setup();
    const dm = snowflake();
    h.fake.channels.set(dm, { id: dm, type: 1 });
    const author = { ...ALICE, discriminator: '0', global_name: 'alice', avatar: null };
    const inDm = (content: string) => h.fake.post({ channel_id: dm, channel_type: 1, guild_id: undefined, author, content });
    let from = h.fake.calls.length;
    inDm('hi, can you help?');
    expect(textOf(await h.fake.waitFor(postIn(dm), { from }))).toMatch(/Paste the error from your ComfyUI console/);
    expect(cases()).toEqual([]);

    inDm(KSAMPLER);
    await h.fake.waitFor((c) => postIn(dm)(c) && /Step 1 of/.test(textOf(c)));
    from = h.fake.calls.length;
    inDm('still OOM');
    expect(textOf(await h.fake.waitFor((c) => postIn(dm)(c) && /Step 2 of/.test(textOf(c)), { from }))).not.toMatch(/Progress/);
    const caseId = cases()[0]!.id;
    expect((await h.store.records(caseId)).map((r) => r.type)).not.toContain('log_pasted');
    inDm(`<@${BOT}> worked`);
    await until(() => cases()[0]!.status === 'resolved');
    expect((await h.store.get(caseId))!.row.resolution).toBe('confirmed');
  });

  it('takes "that\'s not my problem" typed in a DM case as the button: the whole log is asked for, and its diagnosis replaces the first', async () => {
    h = await setup();
    const dm = snowflake();
    h.fake.channels.set(dm, { id: dm, type: 1 });
    const author = { ...ALICE, discriminator: '0', global_name: 'alice', avatar: null };
    const inDm = (content: string) => h.fake.post({ channel_id: dm, channel_type: 1, guild_id: undefined, author, content });
    inDm(KSAMPLER);
    await h.fake.waitFor((c) => postIn(dm)(c) && /Step 1 of/.test(textOf(c)));
    let from = h.fake.calls.length;
    inDm("that's not my problem");
    expect(textOf(await h.fake.waitFor(postIn(dm), { from }))).toMatch(/Sorry, I read your log wrong.*Paste the whole console log/s);
    from = h.fake.calls.length;
    inDm('RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to allocate 11796480000 bytes.');
    expect(textOf(await h.fake.waitFor(postIn(dm), { from }))).toMatch(/From this log, the diagnosis is/);
    const caseId = cases()[0]!.id;
    expect((await h.store.get(caseId))!.state.plan.entry).toBe('ram-oom');
    expect((await h.store.records(caseId)).map((r) => r.type)).not.toContain('plan_switched');
  });

  it('moves a case to the owner\'s DMs when it may not post where it was asked, and stops it when DMs are closed too: no stranded case', async () => {
    h = await setup();
    h.fake.fail({ method: 'POST', path: new RegExp(`^/channels/${HELP}/messages$`), status: 403, times: 50 });
    say(h, HELP, ALICE, `<@${BOT}> ${KSAMPLER}`);
    const moved = await h.fake.waitFor((c) => c.method === 'POST' && /not allowed to post in the channel/.test(textOf(c)));
    const dm = /^\/channels\/(\d+)\/messages$/.exec(moved.path)![1]!;
    expect(h.fake.channels.get(dm)?.type).toBe(1);
    await h.fake.waitFor((c) => postIn(dm)(c) && /Step 1 of/.test(textOf(c)));
    await until(() => cases()[0]?.thread === dm);
    // The case goes on in the DM, typed answers and all.
    const from = h.fake.calls.length;
    h.fake.post({ channel_id: dm, channel_type: 1, guild_id: undefined, author: { ...ALICE, discriminator: '0', global_name: 'alice', avatar: null }, content: 'still OOM' });
    await h.fake.waitFor((c) => postIn(dm)(c) && /Step 2 of/.test(textOf(c)), { from });

    // DMs closed as well: a reaction says it, and the case is stopped rather than left open.
    h.fake.fail({ method: 'POST', path: /^\/users\/@me\/channels$/, status: 403, code: 50007, times: 5 });
    say(h, HELP, BOB, `<@${BOT}> ${VAE}`);
    await h.fake.waitFor((c) => c.method === 'PUT' && /\/reactions\//.test(c.path));
    await until(() => cases().some((c) => c.user === BOB.id && c.status === 'cancelled'));
    expect(cases().filter((c) => c.status === 'open').map((c) => c.user)).toEqual([ALICE.id]);
  });

  function forgetCommand() {
    const id = snowflake();
    return {
      id,
      token: `tok-${id}`,
      type: 2,
      application_id: BOT,
      guild_id: GUILD,
      channel: h.fake.channels.get(HELP)!,
      channel_id: HELP,
      member: { user: { ...ALICE, discriminator: '0', global_name: 'alice', avatar: null }, roles: [], joined_at: '2024-01-01T00:00:00.000Z', deaf: false, mute: false, flags: 0, permissions: '0' },
      locale: 'en-US',
      app_permissions: String(BOT_PERMISSIONS),
      version: 1,
      data: { id: snowflake(), name: 'comfyoom-forget', type: 1, options: [] },
      entitlements: [],
      authorizing_integration_owners: { '0': GUILD },
      context: 0,
    };
  }
});
