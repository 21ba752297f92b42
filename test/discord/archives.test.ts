// A zipped log, attached to /comfyoom on Discord and to a mention on Slack, is read like the log.
import yazl from 'yazl';
import { afterEach, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeSlack, type FakeSlack } from '../slack/fake-slack.ts';
import { BOT_USER, CHANNEL, eventCallback, fakeOptions, headerOf, newTs, post, startBot, until as slackUntil, ALICE as SLACK_ALICE, type Bot } from '../slack/harness.ts';
import { bodyOf, original, setup, slash, type Harness } from './harness.ts';

let h: Harness | undefined;
let fake: FakeSlack | undefined;
let bot: Bot | undefined;
afterEach(async () => {
  await h?.close();
  await bot?.stop();
  await fake?.close();
  h = bot = fake = undefined;
});

function logsZip(): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('electron main process started'), 'logs/main.log');
  zip.addBuffer(Buffer.from(onNvidia(sample('cf-0214').text)), 'logs/comfyui.log');
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve) => zip.outputStream.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))));
}

it('diagnoses a zipped logs folder attached to /comfyoom on Discord', async () => {
  h = await setup();
  const p = slash(h, { file: { name: 'logs.zip', body: await logsZip() } });
  const diagnosis = await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
  expect(bodyOf(diagnosis).embeds[0].title).toBe('Out of GPU memory while sampling');
});

it('diagnoses a zipped log attached to a mention on Slack', async () => {
  fake = await startFakeSlack(fakeOptions);
  bot = await startBot(fake);
  const body = await logsZip();
  const url = fake.serveFile('logs.zip', body, 'application/zip');
  const file = { id: 'F0ZIP', name: 'logs.zip', mimetype: 'application/zip', size: body.length, url_private_download: url };
  await post(bot, JSON.stringify(eventCallback({ type: 'app_mention', channel: CHANNEL, user: SLACK_ALICE, text: `<@${BOT_USER}>`, ts: newTs(), files: [file] })), 'json');
  await slackUntil(() => fake!.of('chat.postMessage').concat(fake!.of('chat.update')).some((c) => /sampling/i.test(headerOf(c) ?? '')), 'the diagnosis');
});
