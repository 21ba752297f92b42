// The operations port of the real bots (startBots: engine, SQLite file, worker pool, discord.js and
// Bolt against the local fakes) on 127.0.0.1: /healthz says what is not ready, /metrics counts what
// the conversations did, and the log keeps no paste text even where a post fails.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../src/adapters/slack/bot.ts';
import { startBots, type Bots } from '../../src/app/bots.ts';
import { sample as corpusSample } from '../helpers/corpus.ts';
import { renderScreenshot, STYLES } from '../helpers/screenshot.ts';
import { capturedLog, type CapturedLog } from '../helpers/log.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeDiscord, type Call, type FakeDiscord } from '../discord/fake-discord.ts';
import { button, BOT, GUILD, HELP, messageFrom, original, postIn, press, slash, threadFrom, webhook, type Harness } from '../discord/harness.ts';
import { startFakeSlack, type FakeSlack } from '../slack/fake-slack.ts';
import { fakeOptions, form, sign, slashPayload, ALICE as SLACK_ALICE } from '../slack/harness.ts';
import { botConfig, eventually, SLOW } from './bots.ts';
import { named, parseMetrics, sample, type Samples } from './prom.ts';

const KSAMPLER = onNvidia(corpusSample('cf-0214').text);
const NOT_OOM = corpusSample('cf-0069').text;
/** A token-shaped secret in a paste: redacted before storing, and never logged. */
const SECRET_TOKEN = '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';

const tempDb = () => join(mkdtempSync(join(tmpdir(), 'comfyoom-ops-')), 'cases.db');
const newThread = (c: Call) => threadFrom(HELP)(c) && c.status < 300;

async function get(bots: Bots, path: string) {
  const res = await fetch(`http://127.0.0.1:${bots.ops!.port}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}
const metrics = async (bots: Bots): Promise<Samples> => parseMetrics((await get(bots, '/metrics')).text);

describe('the operations port', () => {
  let discord: FakeDiscord;
  let slack: FakeSlack;
  let bots: Bots;
  let logged: CapturedLog;
  let dbPath: string;
  // The payload builders read only the fake.
  const h = () => ({ fake: discord }) as unknown as Harness;
  const rows = () => {
    const db = new Database(dbPath, { readonly: true });
    try {
      return db.prepare('SELECT id, platform, entry, status FROM cases ORDER BY created_at').all() as { id: string; platform: string; entry: string; status: string }[];
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    discord = await startFakeDiscord({ botId: BOT, guildId: GUILD, channels: [{ id: HELP, type: 0, name: 'help' }] });
    slack = await startFakeSlack(fakeOptions);
    logged = capturedLog('debug');
    dbPath = tempDb();
    bots = (await startBots(botConfig(dbPath), { discordApi: discord.api, slackApiUrl: slack.api, slackRetry: { retries: 0 }, slackHost: '127.0.0.1', log: logged.log }))!;
  });
  afterAll(async () => {
    await bots?.stop();
    await discord?.close();
    await slack?.close();
  });

  it('is ready when Discord, Slack and the store are, and serves nothing else', async () => {
    const health = await get(bots, '/healthz');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ ready: true, checks: { discord: 'ok', slack: 'ok', store: 'ok' } });
    expect((await get(bots, '/cases')).status).toBe(404);
  });

  it('counts cases by entry and outcome, acknowledgements per platform, classifications and rate limits, as Prometheus reads them', async () => {
    // Counted from here: the other tests of this bot may have run first.
    const before = await metrics(bots);
    const casesBefore = new Set(rows().map((r) => r.id));
    let interactions = 0;

    // Discord: a case walked to a confirmed fix, with a 429 on its thread on the way.
    discord.fail({ method: 'POST', path: /\/threads$/, status: 429 });
    const from = discord.calls.length;
    slash(h(), { log: KSAMPLER });
    interactions++;
    const thread = (await discord.waitFor(newThread, { ...SLOW, from })).response.id as string;
    const step = await discord.waitFor(postIn(thread), SLOW);
    const worked = press(h(), messageFrom(step), button(step, 'w'));
    interactions++;
    await discord.waitFor(webhook(worked), SLOW);

    // Discord: a paste that is no OOM, skipped through to the hand-over.
    const p = slash(h(), { log: NOT_OOM });
    interactions++;
    await discord.waitFor((c) => original(p)(c) && c.method === 'PATCH', SLOW);
    let call = await discord.waitFor(postIn((await discord.waitFor(newThread, { ...SLOW, from: discord.calls.indexOf(step) + 1 })).response.id), SLOW);
    for (let guard = 0; guard < 8 && !call.files.length; guard++) {
      const skip = press(h(), messageFrom(call), button(call, 's'));
      interactions++;
      call = await discord.waitFor(webhook(skip), SLOW);
    }

    // Slack: /comfyoom with the log, over HTTP.
    const raw = form(slashPayload(slack, SLACK_ALICE, KSAMPLER) as unknown as Record<string, string>);
    const port = (bots.running.find((r) => r.platform === 'slack') as SlackAdapter).port!;
    const res = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...sign(raw) }, body: raw });
    expect(res.status).toBe(200);
    const newCases = () => rows().filter((r) => !casesBefore.has(r.id));
    expect(await eventually(newCases, (r) => r.length === 3)).toHaveLength(3);
    const resolved = newCases().find((r) => r.status === 'resolved');
    const escalated = newCases().find((r) => r.status === 'escalated');
    const onSlack = newCases().find((r) => r.platform === 'slack');

    const after = await metrics(bots);
    const m = new Map([...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)]));
    expect(resolved).toMatchObject({ platform: 'discord', status: 'resolved' });
    expect(escalated).toMatchObject({ platform: 'discord', status: 'escalated' });
    expect(sample(m, 'comfyoom_cases_opened_total', { platform: 'discord', entry: resolved!.entry })).toBe(resolved!.entry === escalated!.entry ? 2 : 1);
    expect(sample(m, 'comfyoom_cases_opened_total', { platform: 'slack', entry: onSlack!.entry })).toBe(1);
    expect(sample(m, 'comfyoom_cases_resolved_total', { entry: resolved!.entry, resolution: 'confirmed' })).toBe(1);
    expect(sample(m, 'comfyoom_cases_escalated_total', { entry: escalated!.entry })).toBe(1);
    expect(named(m, 'comfyoom_cases_resolved_total').filter(([, n]) => n > 0)).toHaveLength(1);
    expect(sample(m, 'comfyoom_ack_seconds_count', { platform: 'discord' })).toBe(interactions);
    expect(sample(m, 'comfyoom_ack_seconds_count', { platform: 'slack' })).toBe(1);
    // Every acknowledgement within Discord's 3 s: the 3 s bucket holds them all.
    expect(sample(m, 'comfyoom_ack_seconds_bucket', { platform: 'discord', le: '3' })).toBe(interactions);
    expect(sample(m, 'comfyoom_classify_seconds_count')).toBeGreaterThanOrEqual(3);
    expect(sample(m, 'comfyoom_rate_limited_total', { platform: 'discord', kind: 'refused' })).toBe(1);
    expect(sample(after, 'comfyoom_store_errors_total', { operation: 'append' })).toBe(0);
    expect(after.has('comfyoom_process_resident_memory_bytes{}')).toBe(true);
  }, 90_000);

  it('counts a Slack 429', async () => {
    slack.fail('chat.postMessage', { status: 429, retryAfter: 0 });
    const raw = form(slashPayload(slack, SLACK_ALICE, onNvidia(corpusSample('cf-0009').text)) as unknown as Record<string, string>);
    const port = (bots.running.find((r) => r.platform === 'slack') as SlackAdapter).port!;
    await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...sign(raw) }, body: raw });
    const refused = async () => sample(await metrics(bots), 'comfyoom_rate_limited_total', { platform: 'slack', kind: 'refused' });
    expect(await eventually(refused, (n) => n === 1)).toBe(1);
  }, 30_000);

  it('times the OCR of a screenshot', async () => {
    const shot = renderScreenshot(KSAMPLER, STYLES.consoleLight);
    const p = slash(h(), { file: { name: 'oom.png', body: shot.image } });
    await discord.waitFor((c) => original(p)(c) && c.method === 'PATCH', { timeoutMs: 45_000 });
    const m = await metrics(bots);
    expect(sample(m, 'comfyoom_ocr_seconds_count')).toBe(1);
    expect(sample(m, 'comfyoom_ocr_seconds_sum')).toBeGreaterThan(0);
    // The OCR workers start on the first screenshot, and other tests share the cores.
  }, 60_000);

  it('logs no paste text, not even where posting a diagnosis that quotes the paste fails', async () => {
    const paste = `${KSAMPLER}\nHF_TOKEN=${SECRET_TOKEN}`;
    discord.fail({ method: 'PATCH', path: /\/messages\/@original$/, status: 500, times: 4 });
    const p = slash(h(), { log: paste });
    // The bot gives up on the reply and goes on in the channel, logging why.
    await discord.waitFor((c) => webhook(p)(c) && c.method === 'POST' && c.status < 300, SLOW);
    const failure = () => logged.lines().find((l) => /posting the diagnosis of case .* failed/.test(l.msg));
    expect(await eventually(failure, (l) => l !== undefined)).toMatchObject({ err: { status: 500 } });
    const text = logged.text();
    expect(text).not.toContain(SECRET_TOKEN);
    const lines = paste.split('\n').map((l) => l.trim()).filter((l) => l.length >= 12);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.filter((l) => text.includes(l) || text.includes(JSON.stringify(l).slice(1, -1)))).toEqual([]);
  }, 60_000);
});

describe('readiness', () => {
  it('is 503 with what is not ready while a configured platform never connected', async () => {
    const slack = await startFakeSlack(fakeOptions);
    const bots = (await startBots(botConfig(tempDb()), { discordApi: 'http://127.0.0.1:9/api', slackApiUrl: slack.api, slackRetry: { retries: 0 }, slackHost: '127.0.0.1', log: capturedLog().log }))!;
    try {
      const health = await get(bots, '/healthz');
      expect(health.status).toBe(503);
      expect(health.type).toBe('application/json');
      expect(JSON.parse(health.text)).toEqual({ ready: false, checks: { discord: expect.stringMatching(/^did not start: /), slack: 'ok', store: 'ok' } });
    } finally {
      await bots.stop();
      await slack.close();
    }
  });
});
