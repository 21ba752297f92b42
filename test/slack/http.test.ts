// The real Bolt app over HTTP: signed requests in, Web API calls out to a fake Slack, cases in a
// real SQLite file.
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { prepareForOcr } from '../../src/ingest/image.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeSlack, type ApiCall, type FakeSlack } from './fake-slack.ts';
import {
  ADMIN,
  ALICE,
  BOB,
  BOT_TOKEN,
  BOT_USER,
  CHANNEL,
  HELPER,
  LI,
  blockText,
  clickPayload,
  eventCallback,
  fakeOptions,
  form,
  hasButtons,
  headerOf,
  interactive,
  newTs,
  post,
  shortcutPayload,
  slackText,
  slashPayload,
  settle as settleCalls,
  startBot,
  until,
  viewSubmission,
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
  // Work a request started may still be posting; let it finish inside its own test.
  await settle(100);
  await bot.stop();
});

const caseCount = (b = bot) => b.db.prepare('SELECT COUNT(*) FROM cases').pluck().get() as number;
const eventCount = (b = bot) => b.db.prepare('SELECT COUNT(*) FROM events').pluck().get() as number;
const posts = () => fake.of('chat.postMessage');

async function slash(user: string, text: string, b = bot) {
  const res = await post(b, form(slashPayload(fake, user, text)), 'form');
  expect(res.status).toBe(200);
  return res;
}

/** The n-th message posted (1-based), once it exists. */
async function nthPost(n: number, what = `post #${n}`) {
  await until(() => posts().length >= n, what);
  return posts()[n - 1]!;
}

async function click(posted: ApiCall, label: string, user: string, b = bot) {
  const res = await post(b, interactive(clickPayload(fake, posted, label, user)), 'form');
  expect(res.status).toBe(200);
}

const settle = (ms?: number) => settleCalls(fake, ms);

describe('Slack over HTTP', () => {
  it('walks a /comfyoom paste to a confirmed fix: diagnosis in the channel, steps in its thread, answered buttons removed', async () => {
    const t0 = Date.now();
    await slash(ALICE, slackText(onNvidia(sample('cf-0214').text)));
    expect(Date.now() - t0).toBeLessThan(3000);

    const diagnosis = await nthPost(1, 'the diagnosis');
    expect(diagnosis.args.channel).toBe(CHANNEL);
    expect(diagnosis.args.thread_ts).toBeUndefined();
    expect(headerOf(diagnosis)).toMatch(/sampling/i);
    expect(blockText(diagnosis)).toContain(`<@${ALICE}>`);
    expect(diagnosis.auth).toBe(`Bearer ${BOT_TOKEN}`);
    expect(diagnosis.args.link_names).toBeUndefined();
    const thread = diagnosis.result.ts as string;

    const step1 = await nthPost(2, 'step 1');
    expect(step1.args.thread_ts).toBe(thread);
    expect(headerOf(step1)).toMatch(/^Step 1 of/);
    expect(hasButtons(step1)).toBe(true);
    const caseId = (await bot.store.caseInThread('slack', thread))!;
    expect((await bot.store.get(caseId))!.row).toMatchObject({ platform: 'slack', server: 'T0TEAM', channel: CHANNEL, user_id: ALICE, thread, status: 'open' });

    await click(step1, 'Still failing', ALICE);
    const update = await fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === step1.result.ts, 'the answered step');
    expect(hasButtons(update)).toBe(false);
    expect(blockText(update)).toContain('Still failing');
    const reason = await nthPost(3, 'the reason question');
    expect(reason.args.thread_ts).toBe(thread);

    await click(reason, 'Same error', ALICE);
    const step2 = await nthPost(4, 'step 2');
    expect(headerOf(step2)).toMatch(/^Step 2 of/);
    expect(step2.args.thread_ts).toBe(thread);

    await click(step2, 'Worked', ALICE);
    const done = await nthPost(5, 'the resolution');
    expect(blockText(done)).toMatch(/fixed by/);
    expect(done.args.thread_ts).toBe(thread);
    await fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === step2.result.ts);

    const { row, state } = (await bot.store.get(caseId))!;
    expect(row).toMatchObject({ status: 'resolved', resolution: 'confirmed', resolving_step: state.plan.steps[1] });
    expect((await bot.store.records(caseId)).map((r) => r.type)).toEqual(['opened', 'offered', 'asked_reason', 'answered', 'offered', 'answered', 'resolved']);
    expect(fake.of('chat.postEphemeral')).toHaveLength(0);
  });

  it('takes "That\'s not my problem" pressed on the diagnosis: the whole log is asked for in its thread', async () => {
    await slash(ALICE, slackText(onNvidia(sample('cf-0214').text)));
    const diagnosis = await nthPost(1, 'the diagnosis');
    const step1 = await nthPost(2, 'step 1');
    const thread = diagnosis.result.ts as string;
    const caseId = (await bot.store.caseInThread('slack', thread))!;
    // It stays on the diagnosis while the steps go on.
    await click(step1, 'Skip', ALICE);
    await nthPost(3, 'step 2');
    expect(fake.of('chat.update').filter((c) => c.args.ts === diagnosis.result.ts)).toHaveLength(0);
    await click(diagnosis, "That's not my problem", ALICE);
    const asked = await nthPost(4, 'the request for the whole log');
    expect(asked.args.thread_ts).toBe(thread);
    expect(blockText(asked)).toMatch(/Paste the whole console log/);
    expect((await bot.store.get(caseId))!.row.misdiagnosed).toBe('gpu-oom-sampling');
  });

  it('opens a modal for /comfyoom without text and diagnoses what is submitted', async () => {
    await slash(ALICE, '');
    const open = await fake.waitFor((c) => c.method === 'views.open', 'views.open');
    expect(open.args.trigger_id).toMatch(/^trigger-/);
    const view = open.args.view;
    expect(view.type).toBe('modal');
    const input = view.blocks[0];
    expect(input).toMatchObject({ type: 'input', element: { type: 'plain_text_input', multiline: true, max_length: 3000 } });

    // An empty submission keeps the modal open with an error under the field.
    const empty = await post(bot, interactive(viewSubmission(view, ALICE, '  ')), 'form');
    expect(JSON.parse(empty.body)).toMatchObject({ response_action: 'errors', errors: { log: expect.any(String) } });
    expect(caseCount()).toBe(0);

    const res = await post(bot, interactive(viewSubmission(view, ALICE, onNvidia(sample('cf-0009').text))), 'form');
    expect(res.status).toBe(200);
    const diagnosis = await nthPost(1);
    expect(diagnosis.args.channel).toBe(CHANNEL);
    expect(headerOf(diagnosis)).toMatch(/VAE/);
    const step1 = await nthPost(2);
    expect(step1.args.thread_ts).toBe(diagnosis.result.ts);
    const caseId = (await bot.store.caseInThread('slack', diagnosis.result.ts))!;
    expect((await bot.store.get(caseId))!.row.category).toBe('oom_gpu_vae');
  });

  it('ignores a stale button and a stranger privately, and takes a helper’s answer', async () => {
    await slash(ALICE, slackText(onNvidia(sample('cf-0214').text)));
    const step1 = await nthPost(2);
    const caseId = (await bot.store.caseInThread('slack', posts()[0]!.result.ts))!;

    await click(step1, 'Skip', ALICE);
    const step2 = await nthPost(3, 'step 2');
    expect(headerOf(step2)).toMatch(/^Step 2 of/);
    const events = eventCount();
    const updates = fake.of('chat.update').length;

    // The same button again (a double click, or a message whose update did not arrive).
    await click(step1, 'Skip', ALICE);
    const stale = await fake.waitFor((c) => c.method === 'chat.postEphemeral', 'the stale note');
    expect(stale.args).toMatchObject({ channel: CHANNEL, user: ALICE, thread_ts: posts()[0]!.result.ts });
    expect(blockText(stale)).toMatch(/earlier question/);

    await click(step2, 'Worked', BOB);
    const stranger = await fake.waitFor((c) => c.method === 'chat.postEphemeral' && c.args.user === BOB, 'the stranger note');
    expect(blockText(stranger)).toMatch(/Only the person who opened this case/);
    await settle();
    expect(eventCount()).toBe(events);
    expect(fake.of('chat.update')).toHaveLength(updates);
    expect(posts()).toHaveLength(3);
    expect((await bot.store.get(caseId))!.row.status).toBe('open');

    await click(step2, 'Skip', HELPER);
    const step3 = await nthPost(4, 'step 3 after the helper');
    expect(headerOf(step3)).toMatch(/^Step 3 of/);
    const update = await fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === step2.result.ts);
    expect(blockText(update)).toContain('Skip');
  });

  it('diagnoses a paste that is not an OOM, and turns away text with no error in it', async () => {
    await slash(ALICE, slackText(sample('cf-0069').text));
    const diagnosis = await nthPost(1);
    await nthPost(2);
    expect(headerOf(diagnosis)).toMatch(/don't match|mat1/i);
    const caseId = (await bot.store.caseInThread('slack', diagnosis.result.ts))!;
    expect((await bot.store.get(caseId))!.row.category).toBe('not_oom');

    await slash(BOB, 'my comfyui is slow today, any idea?');
    const answer = await fake.waitForResponse();
    expect(answer.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(answer.body)).toMatch(/I found no error in that/);
    expect(caseCount()).toBe(1);
  });

  it('continues a case after a restart: a new app and engine on the same SQLite file take the old button', async () => {
    await slash(ALICE, slackText(onNvidia(sample('cf-0214').text)));
    const diagnosis = await nthPost(1);
    const step1 = await nthPost(2);
    const path = bot.path;
    await bot.stop();

    bot = await startBot(fake, { path });
    await click(step1, 'Skip', ALICE);
    const step2 = await nthPost(3, 'step 2 after the restart');
    expect(headerOf(step2)).toMatch(/^Step 2 of/);
    expect(step2.args.thread_ts).toBe(diagnosis.result.ts);
    await fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === step1.result.ts);
  });

  it('takes the old buttons off after a restart too: which message has them is kept with the case', async () => {
    await slash(ALICE, slackText(onNvidia(sample('cf-0214').text)));
    const diagnosis = await nthPost(1);
    const step1 = await nthPost(2);
    await settle();
    const path = bot.path;
    await bot.stop();

    bot = await startBot(fake, { path });
    const caseId = (await bot.store.caseInThread('slack', diagnosis.result.ts))!;
    await bot.adapter.deliver((await bot.store.get(caseId))!.row, [{ caseId, blocks: [{ kind: 'text', text: 'This case was closed.' }] }]);
    await nthPost(3);
    const retired = await fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === step1.result.ts, 'the retired step');
    expect(hasButtons(retired)).toBe(false);
    expect(retired.args.blocks).toEqual(step1.args.blocks.filter((b: { type: string }) => b.type !== 'actions'));
    // The diagnosis keeps its "Show current step": only a step's answers are retired.
    expect(fake.of('chat.update').filter((c) => c.args.ts === diagnosis.result.ts)).toHaveLength(0);
  });

  it('rejects a request with a bad or old signature (401) and records nothing', async () => {
    const raw = form(slashPayload(fake, ALICE, slackText(onNvidia(sample('cf-0214').text))));
    expect((await post(bot, raw, 'form', { secret: 'not-the-secret-000000000000' })).status).toBe(401);
    expect((await post(bot, raw, 'form', { ts: Math.floor(Date.now() / 1000) - 600 })).status).toBe(401);
    const tampered = await fetch(bot.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': '1', 'x-slack-signature': 'v0=00' }, body: raw });
    expect(tampered.status).toBe(401);
    await settle();
    expect(caseCount()).toBe(0);
    expect(posts()).toHaveLength(0);
  });

  it('survives a 429 with Retry-After: the case is stored first and the message goes out after the wait', async () => {
    await bot.stop();
    // Production keeps the WebClient's retries; one retry with no extra backoff is the same behaviour, faster.
    bot = await startBot(fake, { retryConfig: { retries: 2, factor: 1, minTimeout: 0, maxTimeout: 0 } });
    fake.fail('chat.postMessage', { status: 429, retryAfter: 1 });
    const t0 = Date.now();
    await slash(ALICE, slackText(onNvidia(sample('cf-0214').text)));
    const limited = () => fake.calls.find((c) => c.method === 'chat.postMessage' && c.status === 429);
    await until(() => !!limited(), 'the rate-limited post');
    // While Slack makes the bot wait, the case is already safe in SQLite.
    expect(caseCount()).toBe(1);
    expect(posts()).toHaveLength(0);
    const diagnosis = await nthPost(1, 'the diagnosis after the wait');
    expect(diagnosis.at - limited()!.at).toBeGreaterThanOrEqual(950);
    const step1 = await nthPost(2);
    expect(step1.args.thread_ts).toBe(diagnosis.result.ts);
    expect(await bot.store.caseInThread('slack', diagnosis.result.ts)).toBeDefined();
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('logs a post that keeps failing (500) without crashing, and a mention in the thread shows the question again', async () => {
    fake.fail('chat.postMessage', { status: 500 }, { skip: 1 });
    await slash(ALICE, slackText(onNvidia(sample('cf-0214').text)));
    const diagnosis = await nthPost(1);
    await until(() => bot.log.errors().length > 0, 'the logged failure');
    await settle();
    expect(bot.log.errors().join('\n')).toMatch(/could not post for case/);
    const caseId = (await bot.store.caseInThread('slack', diagnosis.result.ts))!;
    expect((await bot.store.get(caseId))!.row.status).toBe('open');

    await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', user: ALICE, text: `<@${BOT_USER}> ?`, ts: newTs(), thread_ts: diagnosis.result.ts })), 'json');
    const again = await nthPost(2, 'the question shown again');
    expect(again.args.thread_ts).toBe(diagnosis.result.ts);
    expect(headerOf(again)).toMatch(/^Step 1 of/);
    await click(again, 'Skip', ALICE);
    expect(headerOf(await nthPost(3))).toMatch(/^Step 2 of/);
  });

  it('never lets pasted text ping anyone: <!channel>, <!here> and user mentions are escaped', async () => {
    const paste = onNvidia(sample('cf-0214').text).replace('(out of memory)', '(out of memory) <!channel> <!here> <@U0BOB> & co');
    await slash(ALICE, ''); // the modal delivers raw text, exactly as pasted
    const view = (await fake.waitFor((c) => c.method === 'views.open')).args.view;
    await post(bot, interactive(viewSubmission(view, ALICE, paste)), 'form');
    const diagnosis = await nthPost(1);
    await nthPost(2);
    const sent = JSON.stringify(posts().map((c) => [c.args.text, c.args.blocks]));
    expect(sent).toContain('&lt;!channel&gt;');
    expect(sent).toContain('&amp; co');
    for (const ping of ['<!channel>', '<!here>', '<!everyone>', '<@U0BOB>']) expect(sent).not.toContain(ping);
    expect(diagnosis.args.link_names).toBeUndefined();

    // The same through a mention: Slack sends encoded text and real mention tokens.
    fake.reset();
    const ts = newTs();
    await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', user: BOB, ts, text: `<@${BOT_USER}> ${slackText(onNvidia(sample('cf-0009').text))} <!channel> &lt;!here&gt; <@U0ALICE>` })), 'json');
    await nthPost(2);
    const mention = JSON.stringify(posts().map((c) => [c.args.text, c.args.blocks]));
    for (const ping of ['<!channel>', '<!here>', '<@U0ALICE>']) expect(mention).not.toContain(ping);
  });

  it('diagnoses the thread parent when mentioned under it, and takes the owner’s next log in the thread', async () => {
    const parent = newTs();
    fake.seed(CHANNEL, { ts: parent, user: ALICE, text: slackText(onNvidia(sample('cf-0009').text)) });
    await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', user: BOB, text: `<@${BOT_USER}> can you look at this?`, ts: newTs(), thread_ts: parent })), 'json');
    const diagnosis = await nthPost(1);
    expect(fake.of('conversations.replies')[0]!.args).toMatchObject({ channel: CHANNEL, ts: parent, limit: '1' });
    expect(diagnosis.args.thread_ts).toBe(parent);
    expect(headerOf(diagnosis)).toMatch(/VAE/);
    const caseId = (await bot.store.caseInThread('slack', parent))!;
    // The case belongs to the person with the error, who runs the steps.
    expect((await bot.store.get(caseId))!.row.user_id).toBe(ALICE);
    await nthPost(2);

    // Chat in the thread is left alone, from anyone.
    await post(bot, JSON.stringify(eventCallback({ type: 'message', user: ALICE, text: 'thanks, trying now', ts: newTs(), thread_ts: parent })), 'json');
    await post(bot, JSON.stringify(eventCallback({ type: 'message', user: BOB, text: slackText(sample('cf-0069').text), ts: newTs(), thread_ts: parent })), 'json');
    await settle();
    expect(posts()).toHaveLength(2);

    await post(bot, JSON.stringify(eventCallback({ type: 'message', user: ALICE, text: slackText(sample('cf-0069').text), ts: newTs(), thread_ts: parent })), 'json');
    const after = await nthPost(3, 'the answer to the new log');
    expect(after.args.thread_ts).toBe(parent);
    expect(blockText(after)).toMatch(/no longer an out-of-memory error/);
    expect(headerOf(await nthPost(4, 'what the new error is'))).toMatch(/don't match|mat1/i);
    expect((await bot.store.get(caseId))!.row).toMatchObject({ status: 'resolved', resolution: 'assumed' });
    // The old step's buttons were taken away when the case moved on.
    await fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === posts()[1]!.result.ts);
  });

  it('reads a .log file attached to a mention (with the bot token), and refuses to send the token elsewhere', async () => {
    const url = fake.serveFile('error.log', onNvidia(sample('cf-0214').text));
    const ts = newTs();
    const file = { id: 'F0LOG', name: 'error.log', mimetype: 'text/plain', size: 2000, url_private_download: url };
    await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', user: ALICE, text: `<@${BOT_USER}>`, ts, files: [file] })), 'json');
    const diagnosis = await nthPost(1);
    expect(diagnosis.args.thread_ts).toBe(ts);
    expect(headerOf(diagnosis)).toMatch(/sampling/i);
    expect(fake.downloads[0]).toMatchObject({ path: '/files/error.log', auth: `Bearer ${BOT_TOKEN}` });

    fake.reset();
    const elsewhere = { ...file, id: 'F0EVIL', url_private_download: url.replace('127.0.0.1', 'localhost') };
    await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', user: BOB, text: `<@${BOT_USER}>`, ts: newTs(), files: [elsewhere] })), 'json');
    const refused = await fake.waitFor((c) => c.method === 'chat.postEphemeral');
    expect(blockText(refused)).toMatch(/could not be downloaded/);
    expect(fake.downloads).toHaveLength(0);
  });

  it('says "Reading your file…" at once for a large log, and replaces it with the diagnosis', async () => {
    const big = `${'Prompt executed in 3.21 seconds\n'.repeat(12_000)}${onNvidia(sample('cf-0214').text)}`;
    const url = fake.serveFile('big.log', big);
    const ts = newTs();
    const sentAt = Date.now();
    const file = { id: 'F0BIG', name: 'comfyui.log', mimetype: 'text/plain', size: big.length, url_private_download: url };
    await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', user: ALICE, text: `<@${BOT_USER}>`, ts, files: [file] })), 'json');
    const progress = await nthPost(1, 'the progress message');
    expect(progress.args.text).toBe('Reading your file…');
    expect(progress.args.thread_ts).toBe(ts);
    expect(progress.at - sentAt).toBeLessThan(1000);
    const replaced = await fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === progress.result.ts, 'the diagnosis in its place');
    expect(headerOf(replaced)).toMatch(/sampling/i);
    // The first step follows in the thread; a short mention gets no progress message.
    await nthPost(2, 'step 1');
    await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', user: BOB, text: `<@${BOT_USER}> ${slackText(onNvidia(sample('cf-0009').text))}`, ts: newTs() })), 'json');
    await nthPost(4, "bob's step 1");
    expect(posts().filter((c) => c.args.text === 'Reading your file…')).toHaveLength(1);
  });

  it('reads a DM edited to hold a log as if just sent; a deleted mention that opened a case stops it and takes down the diagnosis', async () => {
    const dm = 'D0ALICE';
    const ts = newTs();
    await post(bot, JSON.stringify(eventCallback({ type: 'message', channel: dm, channel_type: 'im', user: ALICE, text: 'hello', ts })), 'json');
    await settle();
    const before = posts().length;
    const edited = { type: 'message', subtype: 'message_changed', channel: dm, channel_type: 'im', ts: newTs(), message: { type: 'message', user: ALICE, text: slackText(onNvidia(sample('cf-0214').text)), ts, channel_type: 'im' }, previous_message: { type: 'message', user: ALICE, text: 'hello', ts } };
    await post(bot, JSON.stringify(eventCallback(edited)), 'json');
    await until(() => posts().slice(before).some((c) => /sampling/i.test(headerOf(c) ?? '')), 'the diagnosis of the edited DM');

    const said = newTs();
    await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', channel: CHANNEL, user: BOB, text: `<@${BOT_USER}> ${slackText(onNvidia(sample('cf-0009').text))}`, ts: said })), 'json');
    const diagnosis = await fake.waitFor((c) => c.method === 'chat.postMessage' && c.args.thread_ts === said && !!headerOf(c), 'the diagnosis under the mention');
    const caseId = (await bot.store.lastOpen('slack', BOB))!;
    await until(async () => (await bot.store.get(caseId))?.row.thread === said, 'the case thread');
    await post(bot, JSON.stringify(eventCallback({ type: 'message', subtype: 'message_deleted', channel: CHANNEL, ts: newTs(), deleted_ts: said, previous_message: { type: 'message', user: BOB, ts: said } })), 'json');
    await fake.waitFor((c) => c.method === 'chat.delete' && c.args.ts === diagnosis.result.ts, 'the diagnosis deleted');
    expect((await bot.store.get(caseId))!.row.status).toBe('cancelled');
  });

  it('handles an event Slack delivers twice only once', async () => {
    const event = eventCallback({ type: 'app_mention', user: ALICE, text: `<@${BOT_USER}> ${slackText(onNvidia(sample('cf-0214').text))}`, ts: newTs() });
    await post(bot, JSON.stringify(event), 'json');
    await post(bot, JSON.stringify(event), 'json');
    await nthPost(2);
    await settle();
    expect(caseCount()).toBe(1);
    expect(posts()).toHaveLength(2);
  });

  it('delivers notices about a case (the idle sweep) into its thread', async () => {
    await slash(ALICE, slackText(onNvidia(sample('cf-0214').text)));
    const diagnosis = await nthPost(1);
    await nthPost(2);
    await settle();
    const caseId = (await bot.store.caseInThread('slack', diagnosis.result.ts))!;
    await bot.adapter.deliver((await bot.store.get(caseId))!.row, [{ caseId, blocks: [{ kind: 'text', text: 'This case was closed.' }] }]);
    const notice = await nthPost(3);
    expect(notice.args).toMatchObject({ channel: CHANNEL, thread_ts: diagnosis.result.ts });
    // The question it replaces can no longer be answered.
    await fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === posts()[1]!.result.ts && !hasButtons(c));
  });

  it('passes a screenshot on a mention through to the engine’s OCR', async () => {
    const png = createCanvas(320, 60).toBuffer('image/png');
    const url = fake.serveFile('oom.png', png, 'image/png');
    const screenshot = { id: 'F0PNG', name: 'oom.png', mimetype: 'image/png', size: png.length, url_private_download: url };
    const mention = () => JSON.stringify(eventCallback({ type: 'app_mention', user: ALICE, text: `<@${BOT_USER}>`, ts: newTs(), files: [screenshot] }));

    // Without OCR the engine asks for text instead, privately: the "Reading your file…" message goes.
    await post(bot, mention(), 'json');
    expect(blockText(await fake.waitFor((c) => c.method === 'chat.postEphemeral'))).toMatch(/screenshot/);
    const progress = posts()[0]!;
    expect(progress.args.text).toBe('Reading your file…');
    await fake.waitFor((c) => c.method === 'chat.delete' && c.args.ts === progress.result.ts, 'the progress message removed');

    await settle();
    await bot.stop();
    const seen: number[] = [];
    bot = await startBot(fake, { ocr: { prepare: prepareForOcr, recognize: async (b) => (seen.push(b.grey.length), { text: onNvidia(sample('cf-0214').text), confidence: 93, ms: 1 }), close: async () => undefined } });
    await post(bot, mention(), 'json');
    const diagnosis = await fake.waitFor((c) => c.method === 'chat.update' && !!headerOf(c), 'the diagnosis in place of the progress message');
    expect(headerOf(diagnosis)).toMatch(/sampling/i);
    expect(seen).toHaveLength(1);
    expect(fake.downloads.at(-1)).toMatchObject({ path: '/files/oom.png', auth: `Bearer ${BOT_TOKEN}` });
  });

  it('tells a mention with nothing to diagnose so, privately', async () => {
    await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', user: BOB, text: `<@${BOT_USER}> hello`, ts: newTs() })), 'json');
    const note = await fake.waitFor((c) => c.method === 'chat.postEphemeral');
    expect(note.args.user).toBe(BOB);
    expect(blockText(note)).toMatch(/I found no error in that/);
    expect(caseCount()).toBe(0);

    // Under the bot's own diagnosis of a closed case: its quote of the error is not a new paste.
    await slash(ALICE, slackText(onNvidia(sample('cf-0214').text)));
    const diagnosis = await nthPost(1);
    await click(await nthPost(2), 'Stop', ALICE);
    await nthPost(3);
    await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', user: ALICE, text: `<@${BOT_USER}> thanks`, ts: newTs(), thread_ts: diagnosis.result.ts })), 'json');
    await until(() => fake.of('chat.postEphemeral').length === 2, 'the second note');
    expect(fake.of('chat.postEphemeral')[1]!.args.thread_ts).toBe(diagnosis.result.ts);
    expect(caseCount()).toBe(1);
  });

  it('diagnoses a message through the “Diagnose with ComfyOOM” shortcut, in that message’s thread', async () => {
    const ts = newTs();
    await post(bot, interactive(shortcutPayload(fake, HELPER, { ts, user: ALICE, text: slackText(onNvidia(sample('cf-0214').text)) })), 'form');
    const diagnosis = await nthPost(1);
    expect(diagnosis.args.thread_ts).toBe(ts);
    const caseId = (await bot.store.caseInThread('slack', ts))!;
    expect((await bot.store.get(caseId))!.row.user_id).toBe(ALICE);

    await post(bot, interactive(shortcutPayload(fake, BOB, { ts: newTs(), user: BOB, text: 'lunch anyone?' })), 'form');
    const refusal = await fake.waitForResponse();
    expect(refusal.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(refusal.body)).toMatch(/I found no error in that/);
  });

  it('shows stats to admins only, privately', async () => {
    await slash(ALICE, slackText(onNvidia(sample('cf-0214').text)));
    await nthPost(2);

    await slash(ADMIN, 'stats 30d');
    const stats = await fake.waitForResponse();
    expect(stats.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(stats.body.blocks)).toMatch(/Cases: 1/);
    // The chart goes to the admin's direct messages with the bot: an ephemeral reply carries no file.
    const chart = await fake.waitFor((c) => c.method === 'files.completeUploadExternal', 'the stats chart');
    expect(chart.args.channel_id).toBe(`D${ADMIN}`);

    await slash(BOB, 'stats');
    const refused = await fake.waitForResponse();
    expect(refused.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(refused.body)).toMatch(/only for ComfyOOM admins/);

    await slash(ADMIN, 'stats forever');
    expect(JSON.stringify((await fake.waitForResponse()).body)).toMatch(/Usage/);
  });

  it('answers in Chinese for a zh-CN Slack locale', async () => {
    await slash(LI, slackText(onNvidia(sample('cf-0214').text)));
    const step1 = await nthPost(2);
    const labels = step1.args.blocks.find((b: any) => b.type === 'actions').elements.map((e: any) => e.text.text);
    expect(labels).toContain('解决了');
    expect(blockText(posts()[0]!)).toContain('通过 /comfyoom 提问');
    expect(fake.of('users.info')[0]!.args).toMatchObject({ user: LI, include_locale: 'true' });
  });

  it('hands over to helpers when the steps run out: summary in the thread and the full summary as a file', async () => {
    await slash(ALICE, slackText(sample('cf-0069').text));
    const diagnosis = await nthPost(1);
    const thread = diagnosis.result.ts as string;
    let step = await nthPost(2);
    for (let n = 3; hasButtons(step); n++) {
      await click(step, 'Skip', ALICE);
      step = await nthPost(n);
    }
    expect(blockText(step)).toMatch(/no more steps/);
    expect(step.args.thread_ts).toBe(thread);
    const complete = await fake.waitFor((c) => c.method === 'files.completeUploadExternal', 'the hand-over file');
    expect(complete.args).toMatchObject({ channel_id: CHANNEL, thread_ts: thread });
    expect(complete.args.files[0].title).toMatch(/^comfyoom-.*\.md$/);
    expect(fake.uploads[0]!.bytes).toBeGreaterThan(50);
    const caseId = bot.db.prepare('SELECT id FROM cases WHERE thread = ?').pluck().get(thread) as string;
    expect((await bot.store.get(caseId))!.row.status).toBe('escalated');
  });

  it('tells the user when it cannot post in the channel', async () => {
    fake.fail('chat.postMessage', { error: 'channel_not_found' });
    await slash(ALICE, slackText(onNvidia(sample('cf-0214').text)));
    const note = await fake.waitForResponse();
    expect(note.body).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(note.body)).toMatch(/can’t post in this channel/);
    // The case reached nobody: it is neither kept nor counted (row 6).
    expect(caseCount()).toBe(0);

    // Through the modal too: the command's response_url travels with the form.
    await slash(ALICE, '');
    const view = (await fake.waitFor((c) => c.method === 'views.open')).args.view;
    fake.fail('chat.postMessage', { error: 'not_in_channel' });
    await post(bot, interactive(viewSubmission(view, ALICE, onNvidia(sample('cf-0009').text))), 'form');
    expect(JSON.stringify((await fake.waitForResponse()).body)).toMatch(/can’t post in this channel/);
    expect(caseCount()).toBe(0);
  });
});
