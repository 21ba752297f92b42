// Issue 12 on Slack, end to end against the strict fake over signed HTTP: one case per thread and
// per message (a shortcut and a mention at once, retries after a restart), scoped stats, the form
// opened within the trigger's 3 s, a case that reached nobody not kept, DMs, forget, one ping.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { kb } from '../helpers/kb.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeSlack, type FakeSlack } from './fake-slack.ts';
import {
  ADMIN,
  ALICE,
  BOB,
  BOT_USER,
  CHANNEL,
  blockText,
  clickPayload,
  eventCallback,
  fakeOptions,
  form,
  headerOf,
  interactive,
  newTs,
  post,
  settle,
  shortcutPayload,
  slackText,
  slashPayload,
  startBot,
  until,
  type Bot,
} from './harness.ts';

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

const KSAMPLER = onNvidia(sample('cf-0214').text);
const VAE = onNvidia(sample('cf-0009').text);
const cases = () => bot.db.prepare('SELECT id, user_id AS user, thread, status FROM cases ORDER BY created_at').all() as { id: string; user: string; thread: string | null; status: string }[];
const posts = () => fake.of('chat.postMessage');
const event = (e: Record<string, unknown>) => post(bot, JSON.stringify(eventCallback(e)), 'json');
const mention = (user: string, text: string, o: Record<string, unknown> = {}) => event({ type: 'app_mention', user, text: `<@${BOT_USER}> ${slackText(text)}`, ts: newTs(), ...o });

describe('one case per thread and per message (rows 1, 2)', () => {
  it("answers Bob's log in Alice's case thread privately with a button; his press opens his own case in the channel", async () => {
    const parent = newTs();
    await mention(ALICE, KSAMPLER, { ts: parent });
    await until(() => posts().length >= 2, 'alice’s case');
    await mention(BOB, VAE, { thread_ts: parent });
    const note = await fake.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.user === BOB, 'the note to Bob');
    expect(blockText(note)).toMatch(/already follows someone else’s case/);
    expect(cases()).toHaveLength(1);
    const own = (note.args.blocks as any[]).find((b) => b.type === 'actions').elements[0];
    const click = { ...clickPayload(fake, posts()[0]!, 'Show current step', BOB), actions: [{ type: 'button', action_id: own.action_id, block_id: 'x', value: own.value, text: own.text, action_ts: '1' }] };
    await post(bot, interactive(click), 'form');
    await until(() => cases().length === 2, 'bob’s case');
    const diagnosis = await fake.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === undefined, 'bob’s diagnosis in the channel');
    expect(headerOf(diagnosis)).toMatch(/VAE/);
    await until(() => cases()[1]!.thread === diagnosis.result.ts, 'bob’s thread');
    expect(cases()[1]).toMatchObject({ user: BOB, status: 'open' });
  });

  it('a shortcut and a mention on the same message at the same moment open one case', async () => {
    const ts = newTs();
    fake.seed(CHANNEL, { ts, user: ALICE, text: slackText(KSAMPLER) });
    await Promise.all([
      post(bot, interactive(shortcutPayload(fake, BOB, { ts, user: ALICE, text: slackText(KSAMPLER) })), 'form'),
      mention(ALICE, KSAMPLER, { ts }),
    ]);
    await settle(fake);
    expect(cases()).toHaveLength(1);
    expect(posts().filter((c) => headerOf(c)?.match(/sampling/i))).toHaveLength(1);
  });

  it('links the case\'s thread when a message that already has a case is diagnosed again', async () => {
    const ts = newTs();
    fake.seed(CHANNEL, { ts, user: ALICE, text: slackText(KSAMPLER) });
    await mention(ALICE, KSAMPLER, { ts });
    await until(() => posts().length >= 2, 'alice’s case');
    await post(bot, interactive(shortcutPayload(fake, BOB, { ts, user: ALICE, text: slackText(KSAMPLER) })), 'form');
    const note = await fake.waitForResponse();
    expect(JSON.stringify(note.body)).toMatch(/already has a case/);
    expect(JSON.stringify(note.body)).toContain(`https://fake.slack.test/archives/${CHANNEL}/p${ts.replace('.', '')}|Go to its thread`);
  });

  it('an event redelivered after a restart is handled once', async () => {
    const e = eventCallback({ type: 'app_mention', user: ALICE, text: `<@${BOT_USER}> ${slackText(KSAMPLER)}`, ts: newTs() });
    await post(bot, JSON.stringify(e), 'json');
    await until(() => posts().length >= 2, 'the case');
    await settle(fake);
    const path = bot.path;
    await bot.stop();
    bot = await startBot(fake, { path });
    await post(bot, JSON.stringify(e), 'json');
    await settle(fake);
    expect(cases()).toHaveLength(1);
    expect(posts()).toHaveLength(2);
  });

  it('the same /comfyoom form sent twice opens one case', async () => {
    await post(bot, form(slashPayload(fake, ALICE, '')), 'form');
    const view = (await fake.waitFor((c) => c.method === 'views.open')).args.view;
    const submit = { type: 'view_submission', team: { id: 'T0TEAM' }, user: { id: ALICE }, api_app_id: 'A0FAKE', token: 't', trigger_id: 'x', view: { ...view, id: 'V0MODAL', state: { values: { log: { text: { type: 'plain_text_input', value: KSAMPLER } } } }, hash: 'h' } };
    await Promise.all([post(bot, interactive(submit), 'form'), post(bot, interactive(submit), 'form')]);
    await until(() => cases().length > 0, 'the case');
    await settle(fake);
    expect(cases()).toHaveLength(1);
  });
});

describe('scoped stats (row 4)', () => {
  it("shows a workspace's admins that workspace's cases only", async () => {
    await bot.engine.open({ platform: 'slack', server: 'T0OTHER', user: 'x', channel: 'C' }, 'ValueError: a secret error from another workspace');
    await bot.engine.open({ platform: 'discord', server: 'G1', user: 'y', channel: 'c' }, KSAMPLER);
    await post(bot, form(slashPayload(fake, ADMIN, 'stats')), 'form');
    const stats = JSON.stringify((await fake.waitForResponse()).body);
    expect(stats).toMatch(/Cases: 0 on slack server T0TEAM/);
    expect(stats).not.toMatch(/secret error/);
  });

  it('shows entries and steps by their titles, and everything with their kb ids after `all`', async () => {
    const caseId = (await bot.engine.open({ platform: 'slack', server: 'T0TEAM', user: ALICE, channel: CHANNEL }, KSAMPLER))[0]!.caseId!;
    const { entry: id } = bot.db.prepare('SELECT entry FROM cases WHERE id = ?').get(caseId) as { entry: string };
    const entry = kb.entries.find((e) => e.id === id)!;
    const said = async (text: string) => {
      await post(bot, form(slashPayload(fake, ADMIN, text)), 'form');
      return ((await fake.waitForResponse()).body.blocks as { text: { text: string } }[]).map((b) => b.text.text).join('\n');
    };
    const glance = await said('stats');
    expect(glance).toContain(`      1  ${entry.title.en}: 0 / 0 / 0 / 0`);
    expect(glance).toMatch(/ — offered 1, none tried\n/);
    expect(glance).not.toContain(id);
    expect(glance).toMatch(/Everything: \/comfyoom stats all/);
    for (const words of ['stats all 30d', 'stats 30d all']) {
      const all = await said(words);
      expect(all).toContain(`      1  ${entry.title.en} (${id}) [${entry.category}]: 0 / 0 / 0 / 0`);
      expect(all).toMatch(/since \d{4}-\d\d-\d\d/);
      expect(all).not.toMatch(/Not shown/);
    }
    expect(await said('stats all forever')).toMatch(/add `all` for every entry/);
  });
});

describe('relabelling a misdiagnosed case', () => {
  it("lets a workspace's admins relabel its own cases with /comfyoom relabel, and no one else", async () => {
    const mine = (await bot.engine.open({ platform: 'slack', server: 'T0TEAM', user: ALICE, channel: CHANNEL }, KSAMPLER))[0]!.caseId!;
    const theirs = (await bot.engine.open({ platform: 'slack', server: 'T0OTHER', user: 'x', channel: 'C' }, KSAMPLER))[0]!.caseId!;
    const said = async (user: string, text: string) => {
      await post(bot, form(slashPayload(fake, user, text)), 'form');
      return JSON.stringify((await fake.waitForResponse()).body);
    };
    expect(await said(ADMIN, 'relabel')).toMatch(/Usage: `\/comfyoom relabel CASE ENTRY`/);
    expect(await said(BOB, `relabel ${mine} ram-oom`)).toMatch(/Only moderators can relabel/);
    expect(await said(ADMIN, `relabel ${theirs} ram-oom`)).toMatch(/could not find that case/);
    expect(await said(ADMIN, `relabel ${mine} ram-oom`)).toMatch(/now counts as/);
    expect((await bot.store.get(mine))!.row.entry).toBe('ram-oom');
    expect((await bot.store.get(theirs))!.row.entry).not.toBe('ram-oom');
  });
});

describe('the form for a long log (row 5)', () => {
  it('opens at once, even when users.info is slow, then speaks the user’s language', async () => {
    fake.delay('users.info', 3500);
    await post(bot, form(slashPayload(fake, 'U0LI', '')), 'form');
    const open = await fake.waitFor((c) => c.method === 'views.open' && c.result?.ok === true, 'the form');
    expect(open.args.view.title.text).toBe('ComfyOOM');
    const update = await fake.waitFor((c) => c.method === 'views.update', 'the form in Chinese', 6000);
    expect(JSON.stringify(update.args.view)).toMatch(/粘贴报错/);
  });

  it('tells the user when Slack refuses the form', async () => {
    fake.fail('views.open', { error: 'expired_trigger_id' });
    await post(bot, form(slashPayload(fake, ALICE, '')), 'form');
    const note = await fake.waitForResponse();
    expect(note.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(note.body)).toMatch(/couldn’t open the form/);
  });

  it('the fake expires a trigger_id after 3 s and refuses it a second time', async () => {
    const stale = slashPayload(fake, ALICE, '');
    const again = slashPayload(fake, ALICE, '');
    await bot.adapter.app.client.views.open({ trigger_id: again.trigger_id, view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] } });
    await expect(bot.adapter.app.client.views.open({ trigger_id: again.trigger_id, view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] } })).rejects.toThrow(/exchanged_trigger_id/);
    await new Promise((r) => setTimeout(r, 3100));
    await expect(bot.adapter.app.client.views.open({ trigger_id: stale.trigger_id, view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] } })).rejects.toThrow(/expired_trigger_id/);
  });
});

describe('where the bot cannot post (row 6)', () => {
  it('keeps no case that reached nobody, and in a DM does not ask to /invite', async () => {
    fake.fail('chat.postMessage', { error: 'channel_not_found' });
    await post(bot, form({ ...slashPayload(fake, ALICE, slackText(KSAMPLER)), channel_id: 'D0OTHERS' }), 'form');
    const note = JSON.stringify((await fake.waitForResponse()).body);
    expect(note).toMatch(/direct message/);
    expect(note).not.toMatch(/\/invite/);
    expect(cases()).toEqual([]);
  });
});

describe('what help channels expect (item 6)', () => {
  it('answers a log sent in a DM with the same flow, in its thread', async () => {
    const ts = newTs();
    await event({ type: 'message', channel: 'D0ALICE', channel_type: 'im', user: ALICE, text: slackText(KSAMPLER), ts });
    const diagnosis = await fake.waitFor((c) => c.method === 'chat.postMessage' && c.args.channel === 'D0ALICE', 'the diagnosis in the DM');
    expect(diagnosis.args.thread_ts).toBe(ts);
    expect(cases()).toEqual([expect.objectContaining({ user: ALICE, thread: ts })]);
  });

  it('reads typed answers in the case: "still OOM" moves to the next step, "解决了" resolves it; a greeting in a DM gets how to start', async () => {
    const dm = (text: string, o: Record<string, unknown> = {}) => event({ type: 'message', channel: 'D0ALICE', channel_type: 'im', user: ALICE, text, ts: newTs(), ...o });
    const inDm = () => posts().filter((c) => c.args.channel === 'D0ALICE');
    await dm('hi, can you help?');
    await fake.waitFor((c) => c.method === 'chat.postMessage' && /Paste the error from your ComfyUI console/.test(JSON.stringify(c.args)), 'how to start');
    expect(cases()).toEqual([]);

    const ts = newTs();
    await event({ type: 'message', channel: 'D0ALICE', channel_type: 'im', user: ALICE, text: slackText(KSAMPLER), ts });
    await until(() => inDm().some((c) => /Step 1 of/.test(JSON.stringify(c.args))), 'step 1');
    await dm('still OOM', { thread_ts: ts });
    await until(() => inDm().some((c) => /Step 2 of/.test(JSON.stringify(c.args))), 'step 2');
    const caseId = cases()[0]!.id;
    expect((await bot.store.records(caseId)).map((r) => r.type)).not.toContain('log_pasted');
    await dm('解决了', { thread_ts: ts });
    await until(() => cases()[0]!.status === 'resolved', 'resolved');
  });

  it('/comfyoom forget deletes the user’s cases after a confirmation', async () => {
    await post(bot, form(slashPayload(fake, ALICE, slackText(KSAMPLER))), 'form');
    await until(() => posts().length >= 2, 'the case');
    await post(bot, form(slashPayload(fake, ALICE, 'forget')), 'form');
    const prompt = await fake.waitForResponse();
    expect(JSON.stringify(prompt.body)).toMatch(/deletes your 1 case/);
    const yes = (prompt.body.blocks as any[]).find((b) => b.type === 'actions').elements.find((e: any) => e.action_id === 'coomf:yes');
    const click = { ...clickPayload(fake, posts()[1]!, 'Skip', ALICE), actions: [{ type: 'button', action_id: yes.action_id, block_id: 'x', value: yes.value, text: yes.text, action_ts: '1' }] };
    await post(bot, interactive(click), 'form');
    expect(JSON.stringify((await fake.waitForResponse()).body)).toMatch(/Deleted 1 case/);
    expect(cases()).toEqual([]);
  });
});

describe('one platform (row 9: same rule on both)', () => {
  it('opens a case for a silent crash on Slack as on Discord: one rule, in the engine', async () => {
    await post(bot, form(slashPayload(fake, ALICE, 'Press any key to continue . . .')), 'form');
    await until(() => cases().length === 1, 'the case');
  });
});
