// A paste link is read like a pasted log, through the real discord.js client and the fake Discord,
// and through Bolt and the fake Slack, from a fake paste host on 127.0.0.1.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { startPasteHost, textPage, type PasteHost } from '../helpers/paste-host.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeSlack, type FakeSlack } from '../slack/fake-slack.ts';
import { BOT_USER, CHANNEL, eventCallback, fakeOptions, headerOf, newTs, post, startBot, until as slackUntil, ALICE as SLACK_ALICE, type Bot } from '../slack/harness.ts';
import { bodyOf, original, setup, slash, type Harness } from './harness.ts';

let host: PasteHost;
let h: Harness | undefined;
let fake: FakeSlack | undefined;
let bot: Bot | undefined;
beforeAll(async () => {
  host = await startPasteHost({ 'pastebin.com/raw/AbCd1234': textPage(onNvidia(sample('cf-0214').text)) });
});
afterEach(async () => {
  await h?.close();
  await bot?.stop();
  await fake?.close();
  h = bot = fake = undefined;
});
afterAll(() => host.close());

it('diagnoses /comfyoom with a pastebin link on Discord', async () => {
  h = await setup({ readPaste: host.read });
  const p = slash(h, { log: 'https://pastebin.com/AbCd1234' });
  const diagnosis = await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
  expect(bodyOf(diagnosis).embeds[0].title).toBe('Out of GPU memory while sampling');
  expect(host.asked).toContain('pastebin.com/raw/AbCd1234');
});

it('diagnoses a mention with a pastebin link on Slack', async () => {
  fake = await startFakeSlack(fakeOptions);
  bot = await startBot(fake, { readPaste: host.read });
  const ts = newTs();
  await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', channel: CHANNEL, user: SLACK_ALICE, text: `<@${BOT_USER}> my log: <https://pastebin.com/AbCd1234>`, ts })), 'json');
  await slackUntil(() => fake!.of('chat.postMessage').some((c) => /sampling/i.test(headerOf(c) ?? '')), 'the diagnosis');
});
