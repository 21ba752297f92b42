// A graceful stop of the real bot process: SIGTERM while a user's new log is being read, right after
// the bot acknowledged it. The bot takes no new work, finishes the log (stored and answered), closes
// the gateway and the store, and exits 0 within 5 s; every answer of the conversation is in the file.
// So too while a platform refuses every post and its client waits to retry: the case is stored, and
// the post is left.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeDiscord, type FakeDiscord } from '../discord/fake-discord.ts';
import { button, BOT, callback, GUILD, HELP, messageFrom, original, postIn, press, slash, threadFrom, TOKEN, webhook, type Harness } from '../discord/harness.ts';
import { eventually, SLOW } from './bots.ts';
import { startFakeSlack, type FakeSlack } from '../slack/fake-slack.ts';
import { ALICE as SLACK_ALICE, APP_TOKEN, BOT_TOKEN, fakeOptions, slashPayload } from '../slack/harness.ts';

const KSAMPLER = onNvidia(sample('cf-0214').text);

/** A file server that holds each download until released: the bot's work on it stays in flight meanwhile. */
async function heldFiles(body: string) {
  const waiting: (() => void)[] = [];
  let requested = 0;
  const server = http.createServer((_req, res) => {
    requested++;
    waiting.push(() => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: (name: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/${name}`,
    requested: () => requested,
    release: () => waiting.splice(0).forEach((send) => send()),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** Resolves when the child's log has a line whose message matches. */
function logLine(child: ChildProcess, msg: RegExp, timeoutMs = 20_000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no log line ${msg} within ${timeoutMs} ms; log so far:\n${seen}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      seen += chunk.toString();
      for (const line of seen.split('\n')) {
        if (!line.startsWith('{')) continue;
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if (msg.test(String(parsed['msg']))) {
          clearTimeout(timer);
          child.stderr!.off('data', read);
          return resolve(parsed);
        }
      }
    };
    child.stderr!.on('data', read);
  });
}

let fake: FakeDiscord | undefined;
let slack: FakeSlack | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await fake?.close();
  await slack?.close();
  fake = slack = undefined;
});

/** The bot as `comfyoom start` runs it, on a new database, with the platforms the environment gives. */
function startBotProcess(env: Record<string, string>) {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'comfyoom-stop-')), 'cases.db');
  child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'bot-process.ts')], {
    env: { ...process.env, COMFYOOM_DB: dbPath, DISCORD_TOKEN: '', SLACK_BOT_TOKEN: '', COMFYOOM_LOG_FORMAT: 'json', COMFYOOM_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child!.once('exit', (code) => resolve({ code, at: Date.now() })));
  return { child, dbPath, exited };
}

const eventTypes = (dbPath: string) => {
  const db = new Database(dbPath, { readonly: true });
  const types = (db.prepare('SELECT type FROM events ORDER BY seq').all() as { type: string }[]).map((e) => e.type);
  db.close();
  return types;
};

describe('graceful stop', () => {
  it('on SIGTERM mid-conversation finishes the answer in flight, stores every answer, takes nothing new and exits 0 within 5 s', async () => {
    fake = await startFakeDiscord({ botId: BOT, guildId: GUILD, channels: [{ id: HELP, type: 0, name: 'help' }] });
    const { child, dbPath, exited } = startBotProcess({ DISCORD_TOKEN: TOKEN, FAKE_DISCORD_API: fake.api });
    await logLine(child, /^connected$/, 60_000);

    // Alice's case: step 1 did not work, the same error; step 2 is offered.
    const newLogText = `${KSAMPLER}\n`;
    const files = await heldFiles(newLogText);
    const h = { fake: { ...fake, serveFile: (name: string) => files.url(name) } } as unknown as Harness;
    slash(h, { log: KSAMPLER });
    const thread = (await fake.waitFor((c) => threadFrom(HELP)(c) && c.status < 300, SLOW)).response.id as string;
    const step1 = await fake.waitFor(postIn(thread), SLOW);
    const failed = press(h, messageFrom(step1), button(step1, 'f'));
    const ask = await fake.waitFor(webhook(failed), SLOW);
    const same = press(h, messageFrom(ask), button(ask, 'rs'));
    const step2 = await fake.waitFor(webhook(same), SLOW);

    // Her new log, as a file in the case thread: acknowledged, then held while the bot downloads it.
    const newLog = slash(h, { file: { name: 'after-step-2.log', body: newLogText }, channel: thread });
    await fake.waitFor(callback(newLog), SLOW);
    expect(await eventually(files.requested, (n) => n === 1)).toBe(1);
    const stopping = logLine(child, /^stopping/);
    const signalled = Date.now();
    child.kill('SIGTERM');
    await stopping;

    // Nothing new is taken once stopping: a click now is neither acknowledged nor stored.
    const late = press(h, messageFrom(step2), button(step2, 'w'));
    await new Promise((r) => setTimeout(r, 500));
    files.release();
    const { code, at } = await exited;
    await files.close();

    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(5_000);
    // The log in flight was read, stored and answered before the gateway closed.
    expect(fake.calls.some((c) => original(newLog)(c) && c.method === 'PATCH' && c.status < 300)).toBe(true);
    expect(fake.calls.some(callback(late))).toBe(false);

    const db = new Database(dbPath, { readonly: true });
    const events = db.prepare('SELECT type, at FROM events ORDER BY seq').all() as { type: string; at: number }[];
    db.close();
    // Step 1's answer and its reason, then the new log (step 2 still failing, step 3 offered); the late click is not there.
    expect(events.map((e) => e.type)).toEqual(['opened', 'offered', 'asked_reason', 'answered', 'offered', 'log_pasted', 'answered', 'offered']);
    // The log's records were stored after the signal: the stop waited for them.
    expect(events.slice(5).every((e) => e.at >= signalled)).toBe(true);
  }, 90_000);

  it('on SIGTERM while Slack answers every post with a 429 and the client waits to retry, exits 0 within 5 s, the case stored', async () => {
    slack = await startFakeSlack(fakeOptions);
    const { child, dbPath, exited } = startBotProcess({ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN, FAKE_SLACK_API: slack.api });
    await logLine(child, /^connected$/, 60_000);
    for (const method of ['chat.postMessage', 'chat.postEphemeral']) slack.fail(method, { status: 429, retryAfter: 30 }, { times: 1_000 });

    await slack.envelope('slash_commands', slashPayload(slack, SLACK_ALICE, KSAMPLER));
    await eventually(() => slack!.calls.some((c) => c.method === 'chat.postMessage'), Boolean, SLOW.timeoutMs);
    const signalled = Date.now();
    child.kill('SIGTERM');
    const { code, at } = await exited;

    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(5_000);
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage').every((c) => c.status === 429)).toBe(true);
    expect(eventTypes(dbPath)).toEqual(['opened', 'offered']);
  }, 90_000);

  it('on SIGTERM while Discord answers every thread with a 429 and discord.js waits to retry, exits 0 within 5 s, the case stored', async () => {
    fake = await startFakeDiscord({ botId: BOT, guildId: GUILD, channels: [{ id: HELP, type: 0, name: 'help' }] });
    const { child, dbPath, exited } = startBotProcess({ DISCORD_TOKEN: TOKEN, FAKE_DISCORD_API: fake.api });
    await logLine(child, /^connected$/, 60_000);
    fake.fail({ method: 'POST', path: /\/messages\/\d+\/threads$/, status: 429, retryAfter: 30, times: 1_000 });

    slash({ fake } as unknown as Harness, { log: KSAMPLER });
    await fake.waitFor((c) => threadFrom(HELP)(c) && c.status === 429, SLOW);
    const signalled = Date.now();
    child.kill('SIGTERM');
    const { code, at } = await exited;

    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(5_000);
    expect(eventTypes(dbPath)).toEqual(['opened', 'offered']);
  }, 90_000);
});
