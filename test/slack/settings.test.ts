// A workspace's settings from chat (/comfyoom config ...), through the real Bolt app over HTTP:
// only its admins change them; watched channels get an offer under an OOM, opted-out ones nothing;
// the helper group and the digest channel are the workspace's own.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeSlack, type ApiCall, type FakeSlack } from './fake-slack.ts';
import { ADMIN, ALICE, BOB, CHANNEL, TEAM, blockText, clickPayload, eventCallback, fakeOptions, form, hasButtons, headerOf, interactive, newTs, post, settle, slackText, slashPayload, startBot, until, type Bot } from './harness.ts';

const OWNER = 'U0OWNER'; // a workspace admin by Slack's own account (users.info)
const GROUP = 'S0GROUP';
const MODS = 'C0MODS';
// A bare console log, with no words of its user's: the place's language decides.
const OOM = onNvidia(sample('cf-0118').text);

let fake: FakeSlack;
let bot: Bot;
beforeAll(async () => {
  fake = await startFakeSlack({ ...fakeOptions, workspaceAdmins: [OWNER] });
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

/** `/comfyoom <text>` by `user`; the private answer it gets. */
async function command(user: string, text: string): Promise<string> {
  const before = fake.responses.length;
  expect((await post(bot, form(slashPayload(fake, user, text)), 'form')).status).toBe(200);
  await until(() => fake.responses.length > before, `the answer to /comfyoom ${text}`);
  const r = fake.responses[before]!;
  expect(r.body.response_type).toBe('ephemeral');
  return JSON.stringify(r.body);
}

/** Someone posts in the channel (not to the bot); Slack keeps it for conversations.history. */
async function postInChannel(user: string, text: string): Promise<string> {
  const ts = newTs();
  fake.seed(CHANNEL, { ts, user, text: slackText(text) });
  await post(bot, JSON.stringify(eventCallback({ type: 'message', channel_type: 'channel', user, text: slackText(text), ts })), 'json');
  return ts;
}

async function click(posted: ApiCall, label: string, user: string) {
  expect((await post(bot, interactive(clickPayload(fake, posted, label, user)), 'form')).status).toBe(200);
}

describe('/comfyoom config', () => {
  it('lets the workspace’s admins (Slack’s and the bot’s) change the settings, and nobody else', async () => {
    expect(await command(ALICE, `config helpers <!subteam^${GROUP}|@helpers>`)).toMatch(/changed by its admins/);
    expect(bot.db.prepare('SELECT COUNT(*) FROM place_settings').pluck().get()).toBe(0);
    const saved = await command(OWNER, `config helpers <!subteam^${GROUP}|@helpers>`);
    expect(saved).toMatch(/Saved\./);
    expect(saved).toContain(`<!subteam^${GROUP}>`);
    expect(await command(ADMIN, 'config')).toMatch(/Weekly digest for moderators: off \(default\)/);
    expect(await command(ADMIN, 'config watch add nowhere')).toMatch(/Usage: `\/comfyoom config`/);
    expect(bot.db.prepare('SELECT place FROM place_settings').pluck().all()).toEqual([TEAM]);
  });

  it('offers help under an OOM in a watched channel, in the workspace’s language, opened by its author only', async () => {
    await command(OWNER, `config watch add <#${CHANNEL}|help>`);
    await command(OWNER, 'config language zh');
    const ts = await postInChannel(ALICE, OOM);
    const offer = await fake.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts, 'the offer');
    expect(blockText(offer)).toMatch(/这看起来是 ComfyUI 的内存不足错误/);

    const before = fake.responses.length;
    await click(offer, '帮我诊断', BOB);
    await until(() => fake.responses.length > before, 'the refusal');
    expect(JSON.stringify(fake.responses[before]!.body)).toMatch(/发出报错的人/);

    await click(offer, '帮我诊断', ALICE);
    const diagnosis = await fake.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts && /sampling|采样/i.test(headerOf(c) ?? ''), 'the diagnosis in the thread');
    expect(diagnosis.args.channel).toBe(CHANNEL);
    await until(() => bot.db.prepare('SELECT COUNT(*) FROM cases WHERE source = ?').pluck().get(`${CHANNEL}:${ts}`) === 1, 'the case');
    expect(bot.db.prepare('SELECT user_id FROM cases').pluck().all()).toEqual([ALICE]);
  });

  it('starts nothing in an opted-out channel', async () => {
    const moved = await command(OWNER, `config opt-out add <#${CHANNEL}|help>`);
    expect(moved).toContain(`<#${CHANNEL}>`);
    expect(await command(ALICE, slackText(OOM))).toMatch(/admins turned me off here/);
    await settle(fake);
    expect(bot.db.prepare('SELECT COUNT(*) FROM cases').pluck().get()).toBe(0);
    expect(posts()).toHaveLength(0);
  });

  it('pings the workspace’s own helper group at the hand-over, and posts its digest where it chose', async () => {
    await command(OWNER, `config helpers <!subteam^${GROUP}|@helpers>`);
    await command(OWNER, `config digest <#${MODS}|mods>`);
    await post(bot, form(slashPayload(fake, ALICE, slackText(sample('cf-0069').text))), 'form');
    await until(() => posts().length >= 2, 'the first step');
    let step = posts()[1]!;
    for (let n = 3; hasButtons(step); n++) {
      await click(step, 'Skip', ALICE);
      await until(() => posts().length >= n, `post #${n}`);
      step = posts()[n - 1]!;
    }
    expect(step.args.text).toMatch(new RegExp(`^<!subteam\\^${GROUP}>`));
    expect(posts().filter((c) => String(c.args.text).includes('subteam'))).toHaveLength(1);

    await bot.adapter.digest!();
    const digest = await fake.waitFor((c) => c.method === 'chat.postMessage' && c.args.channel === MODS, 'the digest');
    expect(blockText(digest)).toMatch(/ComfyOOM, the week from/);
  });
});
