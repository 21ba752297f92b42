// A zipped log, attached to /comfyoom on Discord, posted in a case's thread or attached to a
// mention on Slack, is read like the log.
import yazl from 'yazl';
import { afterEach, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeSlack, type FakeSlack } from '../slack/fake-slack.ts';
import { BOT_USER, CHANNEL, eventCallback, fakeOptions, headerOf, newTs, post, startBot, until as slackUntil, ALICE as SLACK_ALICE, type Bot } from '../slack/harness.ts';
import { snowflake } from './fake-discord.ts';
import { ALICE, bodyOf, HELP, original, postIn, say, setup, slash, textOf, threadFrom, until, type Harness } from './harness.ts';

let h: Harness | undefined;
let fake: FakeSlack | undefined;
let bot: Bot | undefined;
afterEach(async () => {
  await h?.close();
  await bot?.stop();
  await fake?.close();
  h = bot = fake = undefined;
});

function logsZip(log = onNvidia(sample('cf-0214').text)): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('electron main process started'), 'logs/main.log');
  zip.addBuffer(Buffer.from(log), 'logs/comfyui.log');
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

it("takes the owner's zipped logs, posted in the case thread without a word, as the case's new log", async () => {
  h = await setup();
  slash(h, { log: onNvidia(sample('cf-0214').text) });
  const thread = (await h.fake.waitFor((c) => threadFrom(HELP)(c) && c.status === 200)).response.id as string;
  await h.fake.waitFor(postIn(thread));
  const caseId = (await h.store.lastOpen('discord', ALICE.id))!;
  await until(async () => (await h!.store.get(caseId))!.row.thread === thread);
  const body = await logsZip(onNvidia(sample('cf-0009').text));
  const url = h.fake.serveFile('z/logs.zip', body, 'application/zip');
  const from = h.fake.calls.length;
  say(h, thread, ALICE, '', { attachments: [{ id: snowflake(), filename: 'logs.zip', size: body.length, url, proxy_url: url, content_type: 'application/zip' }] });
  expect(textOf(await h.fake.waitFor(postIn(thread), { from }))).toMatch(/Progress/);
  expect((await h.store.records(caseId)).filter((r) => r.type === 'log_pasted')).toHaveLength(1);
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
