// Another process holds the database's write lock while people click and send commands: the bot
// answers Slack's requests at once (its event loop never waits for the lock) and stores every
// answer and case once the lock is free.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { holdWriteLock, longestStall } from '../helpers/lock-holder.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeSlack, type FakeSlack } from './fake-slack.ts';
import { ALICE, BOB, CHANNEL, clickPayload, fakeOptions, form, interactive, post, slackText, slashPayload, startBot, until, type Bot } from './harness.ts';

let fake: FakeSlack;
let bot: Bot;
beforeAll(async () => {
  fake = await startFakeSlack(fakeOptions);
});
afterEach(async () => {
  await bot.stop();
});
afterAll(async () => {
  await fake.close();
});

const LOCK_HELD_MS = 6000;
const posts = () => fake.of('chat.postMessage');

it('answers every request within 3 s while another process holds the write lock, and loses nothing', { timeout: 60_000 }, async () => {
  bot = await startBot(fake);
  await post(bot, form(slashPayload(fake, ALICE, slackText(onNvidia(sample('cf-0214').text)))), 'form');
  await until(() => posts().length >= 2, 'the first step');
  const step = posts()[1]!;
  const caseId = (await bot.store.lastOpen('slack', ALICE))!;

  const lock = await holdWriteLock(bot.path);
  const answered: { status: number; ms: number }[] = [];
  const timed = async (raw: string) => {
    const t0 = Date.now();
    const { status } = await post(bot, raw, 'form');
    answered.push({ status, ms: Date.now() - t0 });
  };
  const stall = await longestStall(async () => {
    try {
      await Promise.all([
        timed(interactive(clickPayload(fake, step, 'Skip', ALICE))),
        timed(form(slashPayload(fake, BOB, slackText(onNvidia(sample('cf-0009').text))))),
        new Promise((r) => setTimeout(r, LOCK_HELD_MS)),
      ]);
    } finally {
      await lock.release();
    }
  });

  expect(answered.map((a) => a.status)).toEqual([200, 200]);
  expect(Math.max(...answered.map((a) => a.ms))).toBeLessThan(3000);
  expect(stall).toBeLessThan(1500);
  await until(async () => (await bot.store.records(caseId)).some((r) => r.type === 'answered'), 'the answer stored');
  await until(async () => !!(await bot.store.lastOpen('slack', BOB)), "bob's case stored");
  await until(() => posts().some((c) => c.args.channel === CHANNEL && JSON.stringify(c.args.blocks).includes(`<@${BOB}>`)), "bob's diagnosis posted");
  expect(bot.log.errors()).toEqual([]);
});
