// The real Bolt app in Socket Mode (the default): apps.connections.open with the app token, a
// local WebSocket that sends hello and envelopes, and acks back over the socket.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeSlack, type FakeSlack } from './fake-slack.ts';
import {
  ALICE,
  APP_TOKEN,
  BOB,
  BOT_USER,
  CHANNEL,
  blockText,
  clickPayload,
  eventCallback,
  fakeOptions,
  hasButtons,
  headerOf,
  newTs,
  slackText,
  slashPayload,
  settle,
  startBot,
  until,
  viewSubmission,
  type Bot,
} from './harness.ts';

let fake: FakeSlack;
let bot: Bot;
/** What the bot sent to open its socket, kept before a test resets the fake's calls. */
let connectionsOpen: FakeSlack['calls'][number] | undefined;

beforeAll(async () => {
  fake = await startFakeSlack(fakeOptions);
  bot = await startBot(fake, { mode: 'socket' });
  connectionsOpen = fake.calls.find((c) => c.method === 'apps.connections.open');
});
afterEach(async () => {
  // A case's last messages may still be on their way; they belong to the test that caused them.
  await settle(fake, 100);
});
afterAll(async () => {
  await bot.stop();
  await until(() => fake.connections === 0, 'the socket to close');
  await fake.close();
});

const posts = () => fake.of('chat.postMessage');
async function nthPost(n: number) {
  await until(() => posts().length >= n, `post #${n}`);
  return posts()[n - 1]!;
}

describe('Slack over Socket Mode', () => {
  it('connects with the app token', () => {
    expect(connectionsOpen?.auth).toBe(`Bearer ${APP_TOKEN}`);
    expect(fake.connections).toBe(1);
  });

  it('acks a slash command envelope at once, then diagnoses and walks the case to a fix', async () => {
    fake.reset();
    const t0 = Date.now();
    const ack = await fake.envelope('slash_commands', slashPayload(fake, ALICE, slackText(onNvidia(sample('cf-0214').text))));
    expect(ack).toEqual({});
    expect(Date.now() - t0).toBeLessThan(3000);

    const diagnosis = await nthPost(1);
    expect(diagnosis.args.thread_ts).toBeUndefined();
    const step1 = await nthPost(2);
    expect(step1.args.thread_ts).toBe(diagnosis.result.ts);
    expect(hasButtons(step1)).toBe(true);

    expect(await fake.envelope('interactive', clickPayload(fake, step1, 'Worked', ALICE))).toEqual({});
    const done = await nthPost(3);
    expect(blockText(done)).toMatch(/fixed by/);
    expect(done.args.thread_ts).toBe(diagnosis.result.ts);
    const update = await fake.waitFor((c) => c.method === 'chat.update' && c.args.ts === step1.result.ts);
    expect(hasButtons(update)).toBe(false);
    const caseId = bot.db.prepare('SELECT id FROM cases WHERE thread = ?').pluck().get(diagnosis.result.ts) as string;
    expect((await bot.store.get(caseId))!.row).toMatchObject({ status: 'resolved', resolution: 'confirmed', user_id: ALICE });
  });

  it('answers a stranger’s click privately over the socket', async () => {
    fake.reset();
    await fake.envelope('slash_commands', slashPayload(fake, ALICE, slackText(onNvidia(sample('cf-0009').text))));
    const step1 = await nthPost(2);
    await fake.envelope('interactive', clickPayload(fake, step1, 'Skip', BOB));
    const note = await fake.waitFor((c) => c.method === 'chat.postEphemeral');
    expect(note.args.user).toBe(BOB);
    expect(blockText(note)).toMatch(/Only the person who opened this case/);
  });

  it('takes a mention event and answers in the thread', async () => {
    fake.reset();
    const parent = newTs();
    fake.seed(CHANNEL, { ts: parent, user: BOB, text: slackText(onNvidia(sample('cf-0009').text)) });
    await fake.envelope('events_api', eventCallback({ type: 'app_mention', user: BOB, text: `<@${BOT_USER}> help`, ts: newTs(), thread_ts: parent }));
    const diagnosis = await nthPost(1);
    expect(diagnosis.args.thread_ts).toBe(parent);
    expect(headerOf(diagnosis)).toMatch(/VAE/);
  });

  it('opens the modal and validates the submission in the ack', async () => {
    fake.reset();
    await fake.envelope('slash_commands', slashPayload(fake, ALICE, ''));
    const view = (await fake.waitFor((c) => c.method === 'views.open')).args.view;
    const ack = await fake.envelope('interactive', viewSubmission(view, ALICE, ''));
    expect(ack).toMatchObject({ response_action: 'errors', errors: { log: expect.any(String) } });
    expect(await fake.envelope('interactive', viewSubmission(view, ALICE, onNvidia(sample('cf-0214').text)))).toEqual({});
    expect(headerOf(await nthPost(1))).toMatch(/sampling/i);
    await nthPost(2);
  });
});
