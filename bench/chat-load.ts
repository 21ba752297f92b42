// Chat load: 500 simultaneous /comfyoom on Slack over HTTP and on Discord, with 8 MB logs among
// them, against the local fakes, with the real Bolt app, discord.js client, engine (classifying in
// its worker pool) and SQLite. Reports the acknowledgement latency (p50, p99, max: Slack and
// Discord allow 3 s), the event loop's longest stall, and whether every case was stored exactly
// once. The baseline, measured in the same run, is the same load with no log to classify (Slack:
// `/comfyoom help`; Discord: `/comfyoom` alone, answered with the form).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startDiscord } from '../src/adapters/discord/bot.ts';
import { startSlack } from '../src/adapters/slack/bot.ts';
import { Engine } from '../src/conversation/engine.ts';
import { WorkPool } from '../src/conversation/pool.ts';
import { DEFAULT_KB_DIR, loadKb } from '../src/kb/load.ts';
import { CaseStore } from '../src/store/cases.ts';
import { openDb } from '../src/store/db.ts';
import { startFakeDiscord } from '../test/discord/fake-discord.ts';
import { BOT, GUILD, HELP, slash, TOKEN, type Harness } from '../test/discord/harness.ts';
import { startFakeSlack } from '../test/slack/fake-slack.ts';
import { eventCallback, fakeOptions, form, memoryLogger, newTs, post, slashPayload, slackText, type Bot } from '../test/slack/harness.ts';
import { sample } from '../test/helpers/corpus.ts';
import { onNvidia } from '../test/conversation/pastes.ts';
import { type BenchResult, fmtMs, fmtRatio, percentile, round, table } from './lib/measure.ts';

const COMMANDS = Number(process.env.CHAT_LOAD_COMMANDS ?? 500);
/** Of them, this many carry an 8 MB log (a file; on Slack, a mention with the file attached). */
const BIG = 5;
const ACK_LIMIT_MS = 3000;
const STALL_LIMIT_MS = 100;

const PASTES = ['cf-0214', 'cf-0009', 'cf-0016', 'cf-0069', 'cf-0211'].map((id) => onNvidia(sample(id).text));
const bigLog = () => {
  // ASCII, so that 7.9 million characters stay under the 8 MB a log file may have.
  const noise = 'got prompt\nloaded partially 4096.0 MB 100%|####| 20/20 [00:10<00:00]\n';
  return noise.repeat(Math.ceil(7_900_000 / noise.length)).slice(0, 7_900_000 - PASTES[0]!.length - 1) + '\n' + PASTES[0]!;
};

interface Run {
  acks: number[];
  stallMs: number;
  stored: number;
  expected: number;
  distinct: number;
}

const kb = loadKb(DEFAULT_KB_DIR);

function engineOn(path: string, pool: WorkPool) {
  const store = new CaseStore(openDb(path));
  // Five hundred people, one paste each: the per-user limits are not what is measured.
  return { store, engine: new Engine({ kb, store, classify: pool.classify, ratePerMinute: 1000 }) };
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}

const storedOnce = (store: CaseStore, expected: number) => {
  const row = store.db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT source) AS d FROM cases').get() as { n: number; d: number };
  return { stored: row.n, distinct: row.d, expected };
};

async function slackRun(pool: WorkPool, withLogs: boolean): Promise<Run> {
  const fake = await startFakeSlack(fakeOptions);
  const path = join(mkdtempSync(join(tmpdir(), 'load-slack-')), 'cases.db');
  const { store, engine } = engineOn(path, pool);
  const adapter = await startSlack({
    config: { botToken: 'xoxb-load', mode: 'http', signingSecret: 'load-signing-secret-0123456789', port: 0, helpers: [], admins: [] },
    engine,
    slackApiUrl: fake.api,
    retryConfig: { retries: 0 },
    host: '127.0.0.1',
    logger: memoryLogger().logger,
  });
  const bot = { url: `http://127.0.0.1:${adapter.port}/slack/events` } as Bot;
  const secret = 'load-signing-secret-0123456789';
  const big = fake.serveFile('big.log', bigLog());
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const acks = await Promise.all(
    Array.from({ length: COMMANDS }, async (_, i) => {
      const user = `U0LOAD${i}`;
      const t0 = performance.now();
      if (withLogs && i < BIG) {
        const file = { id: `F0BIG${i}`, name: 'console.log', mimetype: 'text/plain', size: 7_900_000, url_private_download: big };
        await postSigned(bot.url, JSON.stringify(eventCallback({ type: 'app_mention', user, text: '<@U0BOT> here is my log', ts: newTs(), files: [file] })), 'json', secret);
      } else {
        await postSigned(bot.url, form(slashPayload(fake, user, withLogs ? slackText(PASTES[i % PASTES.length]!) : 'help')), 'form', secret);
      }
      return performance.now() - t0;
    }),
  );
  const expected = withLogs ? COMMANDS : 0;
  await until(() => storedOnce(store, expected).stored >= expected, 120_000);
  loop.disable();
  const result = { acks, stallMs: loop.max / 1e6, ...storedOnce(store, expected) };
  await adapter.stop();
  store.db.close();
  await fake.close();
  return result;
}

async function postSigned(url: string, raw: string, type: 'form' | 'json', secret: string) {
  const res = await post({ url } as Bot, raw, type, { secret });
  if (res.status !== 200) throw new Error(`Slack request answered ${res.status}`);
}

async function discordRun(pool: WorkPool, withLogs: boolean): Promise<Run> {
  // Discord's real limits are far below 500 posts a second; the fake's are raised so the run ends in minutes (acks are exempt anyway).
  const fake = await startFakeDiscord({ botId: BOT, guildId: GUILD, channels: [{ id: HELP, type: 0, name: 'help' }], limits: { route: 1000, global: 1000, windowMs: 1000 } });
  const path = join(mkdtempSync(join(tmpdir(), 'load-discord-')), 'cases.db');
  const { store, engine } = engineOn(path, pool);
  const bot = await startDiscord({ config: { token: TOKEN, watchChannels: [], messageContent: true, solvedTag: 'Solved' }, engine, api: fake.api, log: () => undefined });
  const h = { fake } as unknown as Harness;
  // Built once, before the clock starts: the load generator shares the bot's event loop.
  const big = Buffer.from(bigLog());
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const sent = Array.from({ length: COMMANDS }, (_, i) => {
    const user = { id: String(1_250_000_000_000_000_000n + BigInt(i)), username: `user${i}` };
    const t0 = Date.now();
    const options = !withLogs ? {} : i < BIG ? { file: { name: 'console.log', body: big } } : { log: PASTES[i % PASTES.length]! };
    return { p: slash(h, { ...options, user }), t0 };
  });
  const callbackOf = (id: string) => `/interactions/${id}/tok-${id}/callback`;
  await until(() => sent.every(({ p }) => fake.calls.some((c) => c.path === callbackOf(p.id))), 60_000);
  const acks = sent.map(({ p, t0 }) => {
    const c = fake.calls.find((x) => x.path === callbackOf(p.id));
    return c && c.status < 300 ? c.at - t0 : Number.POSITIVE_INFINITY;
  });
  const expected = withLogs ? COMMANDS : 0;
  await until(() => storedOnce(store, expected).stored >= expected, 120_000);
  loop.disable();
  const result = { acks, stallMs: loop.max / 1e6, ...storedOnce(store, expected) };
  await bot.stop();
  store.db.close();
  await fake.close();
  return result;
}

export async function benchChatLoad(): Promise<BenchResult> {
  const pool = new WorkPool({ kb, kbDir: DEFAULT_KB_DIR });
  const rows: string[][] = [];
  const failures: string[] = [];
  const summary: Record<string, unknown> = { bench: 'chat-load', commands: COMMANDS, bigLogs: BIG, workers: pool.threads };
  for (const [platform, run] of [
    ['slack', slackRun],
    ['discord', discordRun],
  ] as const) {
    const base = await run(pool, false);
    const load = await run(pool, true);
    const p50 = percentile(load.acks, 50);
    const p99 = percentile(load.acks, 99);
    const late = load.acks.filter((a) => a > ACK_LIMIT_MS).length;
    rows.push([
      platform,
      fmtMs(p50),
      fmtMs(p99),
      fmtMs(Math.max(...load.acks)),
      fmtMs(percentile(base.acks, 99)),
      fmtRatio(p99 / percentile(base.acks, 99)),
      fmtMs(load.stallMs),
      fmtMs(base.stallMs),
      `${load.stored}/${load.expected} (${load.distinct} distinct)`,
    ]);
    if (late) failures.push(`${platform}: ${late} of ${COMMANDS} acknowledged after ${ACK_LIMIT_MS} ms`);
    if (load.stallMs > STALL_LIMIT_MS) failures.push(`${platform}: the event loop stalled ${Math.round(load.stallMs)} ms`);
    if (load.stored !== load.expected || load.distinct !== load.expected) failures.push(`${platform}: ${load.stored} cases stored (${load.distinct} distinct) for ${load.expected} commands`);
    summary[platform] = {
      ackP50Ms: round(p50),
      ackP99Ms: round(p99),
      ackMaxMs: round(Math.max(...load.acks)),
      baselineAckP99Ms: round(percentile(base.acks, 99)),
      ackP99Ratio: round(p99 / percentile(base.acks, 99)),
      longestStallMs: round(load.stallMs),
      baselineStallMs: round(base.stallMs),
      casesStored: load.stored,
      casesExpected: load.expected,
    };
  }
  await pool.close();
  console.log(`\nchat-load — ${COMMANDS} simultaneous /comfyoom per platform, ${BIG} of them with an 8 MB log; worker pool of ${pool.threads}`);
  console.log(table(['platform', 'ack p50', 'ack p99', 'ack max', 'baseline p99', 'p99 / baseline', 'longest stall', 'baseline stall', 'cases stored'], rows));
  return { name: 'chat-load', failures, summary: { ...summary, ok: !failures.length } };
}
