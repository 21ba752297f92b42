// Sharding on one machine, end to end: the real runner (startBots with COMFYOOM_SHARDS=auto) is the
// manager here and forks real shard processes, whose discord.js clients connect to the fake Discord.
// The fake recommends two shards and routes 2,600 guilds between them by Discord's rule. A thousand
// users each open a case from their own message with "Diagnose with ComfyOOM"; one shard's process
// is killed (SIGKILL) mid-run and the manager starts it again. What was sent to it meanwhile is lost,
// as on Discord, and its users try again as "This interaction failed" leads them to. Every case is
// then stored once and abandoned once, by the manager's idle sweep.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startBots, type Bots } from '../../src/app/bots.ts';
import { loadConfig } from '../../src/app/config.ts';
import { API_OPTION, type RunningShards } from '../../src/app/shards.ts';
import { startDiscord } from '../../src/adapters/discord/bot.ts';
import { Engine } from '../../src/conversation/engine.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { kb } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';
import { capturedLog } from '../helpers/log.ts';
import { named, parseMetrics, sample as metric, type Samples } from '../ops/prom.ts';
import { GUILDS_PER_SESSION, shardOf, snowflake, startFakeDiscord, type ApiMessage, type FakeDiscord } from './fake-discord.ts';
import { D } from '../../src/adapters/discord/strings.ts';
import { BOT, TOKEN, contextMenu, say, slash, textOf, until, type Harness } from './harness.ts';
import { renderScreenshot, STYLES } from '../helpers/screenshot.ts';

const GUILDS = 2_600;
const SHARDS = 2;
const CASES = 1_000;
/** Users start opening cases at this pace (per second). */
const PACE = 60;
const IDLE_SECONDS = 6;
/** Discord shows "This interaction failed" when an interaction is not acknowledged within 3 s. */
const ACK_WINDOW_MS = 3_000;
/** A user who has seen only "thinking…" for this long tries again. */
const PATIENCE_MS = 30_000;

/** A guild id minted at a given millisecond, as Discord mints them: its shard is read off that timestamp. */
const guildId = (i: number) => String(((300_000_000_000n + BigInt(i) * 37n) << 22n) | BigInt(i % 4096));

interface Intent {
  user: { id: string; username: string };
  channel: string;
  message?: ApiMessage;
  /** Every interaction the user sent, the last one first. */
  tokens: string[];
  sentAt: number;
  tries: number;
  done: boolean;
}

let bots: Bots | undefined;
let fake: FakeDiscord | undefined;
afterEach(async () => {
  await bots?.stop();
  await fake?.close();
  vi.unstubAllEnvs();
}, 30_000);

describe('sharding on one machine', () => {
  it('is needed past 2,500 guilds: Discord refuses the one-process bot (close 4011)', async () => {
    const guilds = Array.from({ length: GUILDS }, (_, i) => ({ id: guildId(i), channels: [] }));
    fake = await startFakeDiscord({ botId: BOT, guildId: guilds[0]!.id, channels: [], guilds: guilds.slice(1) });
    const config = { token: TOKEN, watchChannels: [], messageContent: true, solvedTag: 'Solved' };
    const engine = new Engine({ kb, store: new CaseStore(sqliteSql(openDb(':memory:'))) });
    await expect(startDiscord({ config, engine, api: fake.api, log: () => undefined })).rejects.toThrow(/shard/i);
    expect(fake.shardsIdentified).toEqual([[0, 1]]);
  });

  it('stops a shard whose manager is gone, so no orphan stays connected', async () => {
    fake = await startFakeDiscord({ botId: BOT, guildId: guildId(0), channels: [] });
    const dbPath = join(mkdtempSync(join(tmpdir(), 'comfyoom-orphan-')), 'cases.db');
    // As ShardingManager forks a shard (shards.ts): its id and count in the environment, and an IPC channel.
    const env = { ...process.env, COMFYOOM_DB: dbPath, DISCORD_TOKEN: TOKEN, COMFYOOM_LOG_LEVEL: 'warn', SHARDING_MANAGER: 'true', SHARDING_MANAGER_MODE: 'process', SHARDS: '0', SHARD_COUNT: '1' };
    const child = fork(fileURLToPath(new URL('../../src/app/shard-entry.mjs', import.meta.url)), [`--${API_OPTION}`, fake.api], { env, execArgv: [] });
    const exited = once(child, 'exit');
    await new Promise<void>((resolve) => child.on('message', (m: { _ready?: boolean }) => m?._ready && resolve()));
    expect(fake.shardsIdentified).toEqual([[0, 1]]);
    child.disconnect();
    expect(await exited).toEqual([0, null]);
  }, 60_000);

  it('runs two shards over 2,600 guilds; a shard killed mid-run loses only what Discord loses, and every case is stored once and swept once by the manager', async () => {
    const began = Date.now();
    const guilds = Array.from({ length: GUILDS }, (_, i) => ({ id: guildId(i), channels: [{ id: snowflake(), type: 0, name: 'help' }] }));
    const [main, ...others] = guilds;
    fake = await startFakeDiscord({
      botId: BOT,
      guildId: main!.id,
      channels: main!.channels,
      guilds: others,
      gateway: { shards: SHARDS, maxConcurrency: 16 },
      // A bot this large asks Discord for a higher global limit than the default 50 per second.
      limits: { route: 50, global: 500, windowMs: 1000 },
    });
    const dbPath = join(mkdtempSync(join(tmpdir(), 'comfyoom-shards-')), 'cases.db');
    // The shards read their settings from the environment the manager passes on, as in production.
    for (const [k, v] of Object.entries({ COMFYOOM_DB: dbPath, COMFYOOM_SHARDS: 'auto', DISCORD_TOKEN: TOKEN, COMFYOOM_IDLE_HOURS: String(IDLE_SECONDS / 3600), COMFYOOM_LOG_LEVEL: 'warn' })) vi.stubEnv(k, v);
    const managerLog = capturedLog('info');
    bots = await startBots(loadConfig(process.env), { discordApi: fake.api, log: managerLog.log });
    const sharded = bots!.running.find((r) => r.platform === 'discord') as RunningShards;
    const { manager } = sharded;
    const connected = Date.now();

    // Each shard holds the guilds Discord's rule gives it, and no more than a session may.
    const held = (await manager.broadcastEval((client) => client.guilds.cache.size)) as number[];
    const expected = [0, 1].map((s) => guilds.filter((g) => shardOf(g.id, SHARDS) === s).length);
    expect(held).toEqual(expected);
    expect(Math.max(...held)).toBeLessThanOrEqual(GUILDS_PER_SESSION);
    expect(fake.shardsIdentified).toEqual(expect.arrayContaining([[0, 2], [1, 2]]));

    const text = sample('cf-0003').text;
    const intents: Intent[] = Array.from({ length: CASES }, (_, i) => ({
      user: { id: String(1_250_000_000_000_000_000n + BigInt(i)), username: `user${i}` },
      channel: guilds[Math.floor((i * GUILDS) / CASES)]!.channels[0]!.id,
      tokens: [],
      sentAt: 0,
      tries: 0,
      done: false,
    }));
    const h = { fake };
    const ask = (it: Intent) => {
      it.message ??= say(h, it.channel, it.user, text);
      it.tokens.unshift(contextMenu(h, it.message, { channel: it.channel, user: it.user }).token);
      it.sentAt = Date.now();
      it.tries++;
    };

    // One clock drives every user: new users at the pace, and a retry for each one Discord failed.
    const victim = manager.shards.get(1)!;
    const killedPid = victim.process!.pid;
    let started = 0;
    let killedAt = 0;
    /** What the manager's health check said meanwhile (/healthz shows it). */
    const problems = new Set<string>();
    const t0 = Date.now();
    const clock = setInterval(() => {
      const now = Date.now();
      for (const due = Math.min(CASES, Math.floor(((now - t0) / 1000) * PACE)); started < due; ) ask(intents[started++]!);
      for (const it of intents.slice(0, started)) {
        if (it.done) continue;
        // An answer to any of the user's tries will do, unless it says something went wrong: then they try again at once.
        const answers = it.tokens.map((t) => fake!.interaction(t).answer).filter((a) => a !== undefined);
        if (answers.some((a) => !failed(a))) it.done = true;
        else if (answers.length >= it.tries || now - it.sentAt > (fake!.interaction(it.tokens[0]!).acked ? PATIENCE_MS : ACK_WINDOW_MS)) ask(it);
      }
      const problem = sharded.problem?.();
      if (problem) problems.add(problem);
      if (!killedAt && started >= CASES * 0.4) {
        killedAt = now;
        victim.process!.kill('SIGKILL');
      }
    }, 100);
    try {
      await until(() => intents.every((i) => i.done), 120_000);
    } finally {
      clearInterval(clock);
    }
    const answered = Date.now();
    const rssMb = ((await manager.broadcastEval(() => process.memoryUsage().rss)) as number[]).map((b) => Math.round(b / 1e6));

    // The manager started the killed shard again: a new process, a new IDENTIFY for shard 1.
    expect(victim.process?.pid).not.toBe(killedPid);
    expect([...problems]).toEqual(['shard 1 of 2 not connected']);
    expect(sharded.problem?.()).toBeUndefined();
    expect(fake.shardsIdentified.filter(([id]) => id === 1).length).toBeGreaterThanOrEqual(2);
    // What was sent while it was down was lost, on shard 1's guilds only, and those users tried again.
    expect(fake.lost.length).toBeGreaterThan(0);
    const lostBy = fake.lost.map((token) => intents.find((i) => i.tokens.includes(token))!);
    expect(new Set(lostBy.map((i) => shardOf(fake!.channels.get(i.channel)!.guild_id!, SHARDS)))).toEqual(new Set([1]));
    const retried = intents.filter((i) => i.tries > 1).length;
    const apologized = intents.filter((i) => i.tokens.some((t) => failed(fake!.interaction(t).answer ?? {}))).length;
    expect(retried).toBeGreaterThanOrEqual(new Set(lostBy).size);

    const db = openDb(dbPath, { readonly: true });
    try {
      // Abandoned by the idle sweep: every case, once.
      await until(() => (db.prepare("SELECT count(*) FROM cases WHERE status = 'abandoned'").pluck().get() as number) >= CASES, 40_000);
      const swept = Date.now();
      const sources = db.prepare("SELECT source, count(*) AS n FROM cases WHERE platform = 'discord' GROUP BY source").all() as { source: string; n: number }[];
      expect(sources.length).toBe(CASES);
      expect(new Set(sources.map((s) => s.source))).toEqual(new Set(intents.map((i) => i.message!.id)));
      expect(sources.every((s) => s.n === 1)).toBe(true);
      const abandons = db.prepare("SELECT case_id, count(*) AS n FROM events WHERE type = 'abandoned' GROUP BY case_id").all() as { n: number }[];
      expect(abandons.length).toBe(CASES);
      expect(abandons.every((a) => a.n === 1)).toBe(true);

      // One idle notice per case, where it lived then (its channel, when its shard had not yet
      // recorded its thread: on this loaded machine some answers take longer than the idle time).
      await until(() => noticesIn(fake!).length >= CASES, 60_000);
      const notices = noticesIn(fake);
      // Read after the notices: a shard slower than the idle time may record a case's thread after
      // the sweep closed it and before the manager posted its notice there.
      const rows = db.prepare('SELECT id, thread, channel FROM cases').all() as { id: string; thread: string | null; channel: string }[];
      expect(notices.length).toBe(CASES);
      // Each notice where a case lived (its thread, or the channel many cases share), a thread's at most once.
      const threads = new Set(rows.flatMap((r) => (r.thread ? [r.thread] : [])));
      const channels = new Set(rows.map((r) => r.channel));
      expect(notices.filter((where) => !threads.has(where) && !channels.has(where))).toEqual([]);
      const inThreads = notices.filter((where) => threads.has(where));
      expect(new Set(inThreads).size).toBe(inThreads.length);
      // The manager logs a round once its last notice is posted, a moment after the fake counted it.
      const sweptByManager = () => managerLog.lines().filter((l) => l.msg === 'idle cases closed').reduce((n, l) => n + (l['swept'] as number), 0);
      await until(() => sweptByManager() >= CASES, PATIENCE_MS);
      expect(sweptByManager()).toBe(CASES);

      console.log(
        `sharding: ${SHARDS} shards, ${GUILDS} guilds (${held.join(' + ')}), ${CASES} cases; shard 1 killed after ${((killedAt - t0) / 1000).toFixed(1)} s, ` +
          `${fake.lost.length} interactions lost, ${retried} users retried (${apologized} after an apology); shards' memory ${rssMb.join(' + ')} MB; stored once: ${sources.length}, swept once: ${abandons.length}, notices: ${notices.length}; ` +
          `connect ${((connected - began) / 1000).toFixed(1)} s, all answered ${((answered - t0) / 1000).toFixed(1)} s, all swept ${((swept - t0) / 1000).toFixed(1)} s, total ${((Date.now() - began) / 1000).toFixed(1)} s`,
      );
    } finally {
      db.close();
    }
  }, 240_000);
});

describe("a sharded bot's /metrics", () => {
  it("adds up every shard's figures: the manager counts no Discord work of its own", async () => {
    // Two guilds, one on each shard by Discord's rule.
    const ids = Array.from({ length: 64 }, (_, i) => guildId(i));
    const guilds = [0, 1].map((s) => ({ id: ids.find((id) => shardOf(id, SHARDS) === s)!, channels: [{ id: snowflake(), type: 0, name: 'help' }] }));
    fake = await startFakeDiscord({ botId: BOT, guildId: guilds[0]!.id, channels: guilds[0]!.channels, guilds: guilds.slice(1), gateway: { shards: SHARDS, maxConcurrency: 16 } });
    const dbPath = join(mkdtempSync(join(tmpdir(), 'comfyoom-shard-metrics-')), 'cases.db');
    for (const [k, v] of Object.entries({ COMFYOOM_DB: dbPath, COMFYOOM_SHARDS: 'auto', DISCORD_TOKEN: TOKEN, COMFYOOM_LOG_LEVEL: 'warn' })) vi.stubEnv(k, v);
    bots = await startBots({ ...loadConfig(process.env), http: { port: 0, host: '127.0.0.1' } }, { discordApi: fake.api, log: capturedLog('warn').log });

    const h = { fake };
    const tokens = guilds.map((g, i) => {
      const user = { id: String(1_260_000_000_000_000_000n + BigInt(i)), username: `metrics${i}` };
      return contextMenu(h, say(h, g.channels[0]!.id, user, sample('cf-0003').text), { channel: g.channels[0]!.id, user }).token;
    });
    await until(() => tokens.every((t) => fake!.interaction(t).answer !== undefined), 60_000);

    const scrape = async () => parseMetrics(await (await fetch(`http://127.0.0.1:${bots!.ops!.port}/metrics`)).text());
    const opened = (m: Samples) => named(m, 'comfyoom_cases_opened_total').reduce((n, [k, v]) => n + (k.includes('platform="discord"') ? v : 0), 0);
    const figures = await scrape();
    expect(opened(figures)).toBe(2);
    expect(metric(figures, 'comfyoom_ack_seconds_count', { platform: 'discord' })).toBeGreaterThanOrEqual(2);
    // The manager's own figures are still there.
    expect(named(figures, 'comfyoom_process_resident_memory_bytes').length).toBe(1);
  }, 120_000);
});

describe("a sharded bot's screenshots", () => {
  it("are read by the manager's one OCR pool, whichever shard received them", async () => {
    const ids = Array.from({ length: 64 }, (_, i) => guildId(i));
    const guilds = [0, 1].map((s) => ({ id: ids.find((id) => shardOf(id, SHARDS) === s)!, channels: [{ id: snowflake(), type: 0, name: 'help' }] }));
    fake = await startFakeDiscord({ botId: BOT, guildId: guilds[0]!.id, channels: guilds[0]!.channels, guilds: guilds.slice(1), gateway: { shards: SHARDS, maxConcurrency: 16 } });
    const dbPath = join(mkdtempSync(join(tmpdir(), 'comfyoom-shard-ocr-')), 'cases.db');
    for (const [k, v] of Object.entries({ COMFYOOM_DB: dbPath, COMFYOOM_SHARDS: 'auto', DISCORD_TOKEN: TOKEN, COMFYOOM_LOG_LEVEL: 'warn' })) vi.stubEnv(k, v);
    bots = await startBots(loadConfig(process.env), { discordApi: fake.api, log: capturedLog('warn').log });
    // The manager is this process: its OCR workers are threads of its own.
    const threads = () => Number(/Threads:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
    const before = threads();

    const h = { fake } as unknown as Harness;
    const shot = renderScreenshot(sample('cf-0003').text, STYLES.consoleDark).image;
    const tokens = guilds.map((g, i) => slash(h, { file: { name: 'console.png', body: shot }, channel: g.channels[0]!.id, user: { id: String(1_270_000_000_000_000_000n + BigInt(i)), username: `shot${i}` } }).token);
    await until(() => tokens.every((t) => fake!.interaction(t).answer !== undefined), 60_000);

    for (const t of tokens) {
      const answer = fake.interaction(t).answer!;
      expect(failed(answer)).toBe(false);
      // The diagnosis with its first step's buttons, not "I could not read this".
      expect(JSON.stringify(answer)).toMatch(/coom:[\w-]+:\d+:/);
    }
    expect(threads()).toBeGreaterThan(before);
  }, 120_000);
});

/** The bot's apology when handling an interaction failed (its case, if any, is stored). */
const failed = (answer: { content?: string }) => (answer.content ?? '').startsWith(D.failed.en.slice(0, 30));

/** Where each idle notice was posted (a thread or a channel). */
const noticesIn = (fake: FakeDiscord) =>
  fake.calls.filter((c) => c.status === 200 && c.method === 'POST' && /closed after a long time/.test(textOf(c))).map((c) => /^\/channels\/(\d+)\/messages$/.exec(c.path)![1]!);
