// Discord beside Slack in one process, Slack's Bolt loaded first: Bolt brings undici 7, discord.js's
// REST speaks undici 6, and the first undici loaded sets the process's default dispatcher. Through
// undici 7's, every Discord post carrying a file failed ("action is not a function"): hand-overs,
// stats charts and weekly digests were lost whenever Slack happened to start first.
import '@slack/bolt';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { button, HELP, messageFrom, original, postIn, press, setup, slash, threadFrom, webhook, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await setup();
});
afterEach(async () => {
  await h.close();
});

it('posts the hand-over summary file when Bolt was loaded before discord.js', async () => {
  const p = slash(h, { log: sample('cf-0069').text });
  await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
  const thread = (await h.fake.waitFor(threadFrom(HELP))).response.id as string;
  let call = await h.fake.waitFor(postIn(thread));
  for (let guard = 0; guard < 5 && !call.files.length; guard++) call = await h.fake.waitFor(webhook(press(h, messageFrom(call), button(call, 's'))));
  expect(call.files.map((f) => f.name)).toEqual([expect.stringMatching(/^comfyoom-.+\.md$/)]);
  expect(h.logs).toEqual([]);
});
