// Chat load: 500 simultaneous /comfyoom on Slack over HTTP and on Discord, with 8 MB logs among
// them. The bot (real Bolt app or discord.js client, engine, SQLite, worker pool) runs in a process
// of its own (chat-load-bot.ts) and measures its own event loop; this process hosts the fakes and
// the load generator, so their work never shows up as the bot's. Acknowledgements are timed here,
// from the moment an interaction is sent to the moment its ack arrives (Slack and Discord allow
// 3 s). Every case must be stored exactly once. The baseline, measured in the same run, is the same
// load with no log to classify (Slack: `/comfyoom help`; Discord: `/comfyoom` alone, answered
// with the form).
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startFakeDiscord } from '../test/discord/fake-discord.ts';
import { BOT, GUILD, HELP, slash, TOKEN, type Harness } from '../test/discord/harness.ts';
import { startFakeSlack, type FakeSlack } from '../test/slack/fake-slack.ts';
import { eventCallback, fakeOptions, form, newTs, sign, slashPayload, slackText } from '../test/slack/harness.ts';
import { sample } from '../test/helpers/corpus.ts';
import { onNvidia } from '../test/conversation/pastes.ts';
import type { FromBot, Gap, ToBot } from './chat-load-bot.ts';
import { type BenchResult, fmtMs, fmtRatio, percentile, round, table } from './lib/measure.ts';

const COMMANDS = Number(process.env.CHAT_LOAD_COMMANDS ?? 500);
/** Of them, this many carry an 8 MB log (a file; on Slack, a mention with the file attached). */
const BIG = Math.min(5, COMMANDS);
const ACK_LIMIT_MS = 3000;
const STALL_LIMIT_MS = 100;
const STALL_P99_LIMIT_MS = 50;

/**
 * Where each process runs: this one (the load generator and the fakes) on the last core at a
 * lower priority, the bot on every core at the normal one, so the bot's figures are not the
 * generator's. Says what could be arranged (taskset is Linux's; raising a priority needs the right).
 */
const CORES = availableParallelism();
const pin = (pid: number, cpus: string) => spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' }).status === 0;
function placeGenerator(): string {
  const pinned = CORES > 1 && pin(process.pid, String(CORES - 1));
  let niced = true;
  try {
    setPriority(process.pid, 10);
  } catch {
    niced = false;
  }
  return `${pinned ? `generator and fakes on core ${CORES - 1}` : 'generator not pinned'}${niced ? ' at nice 10' : ''}`;
}
function placeBot(pid: number): void {
  if (CORES > 1) pin(pid, `0-${CORES - 1}`);
  try {
    setPriority(pid, 0);
  } catch {
    // Without the right to raise it, the bot keeps the generator's priority: the figures say so.
  }
}
const SIGNING_SECRET = 'load-signing-secret-0123456789';

const PASTES = ['cf-0214', 'cf-0009', 'cf-0016', 'cf-0069', 'cf-0211'].map((id) => onNvidia(sample(id).text));
const bigLog = () => {
  // ASCII, so that 7.9 million characters stay under the 8 MB a log file may have.
  const noise = 'got prompt\nloaded partially 4096.0 MB 100%|####| 20/20 [00:10<00:00]\n';
  return noise.repeat(Math.ceil(7_900_000 / noise.length)).slice(0, 7_900_000 - PASTES[0]!.length - 1) + '\n' + PASTES[0]!;
};

interface Run {
  acks: number[];
  /** The bot's event loop: longest stall and 99th percentile of its delays. */
  stallMs: number;
  stallP99Ms: number;
  /** The probe's longest gap, and how much of it the bot's thread ran or waited for a core (Linux). */
  worst?: Gap;
  /** CPU the bot's main thread (Linux) and its whole process used while the load ran. */
  cpu: { mainThreadMs?: number; processMs: number };
  /** Milliseconds from the commands (sent at once) to each case's first step posted. */
  firstStep?: number[];
  /** This process's (the generator's and the fakes') longest stall: how far its timings can be off. */
  loadSideStallMs: number;
  stored: number;
  distinct: number;
  expected: number;
}

/** The bot process, and a way to ask it something and wait for its answer. */
function forkBot() {
  const child: ChildProcess = fork(new URL('./chat-load-bot.ts', import.meta.url), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  placeBot(child.pid!);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ask = <K extends string>(m: ToBot, key: K): Promise<Extract<FromBot, Record<K, unknown>>[K]> =>
    new Promise((resolve, reject) => {
      const onMessage = (answer: FromBot) => {
        if (!(key in answer)) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve((answer as unknown as Record<K, never>)[key]);
      };
      const onExit = (code: number | null) => reject(new Error(`the bot process ended (code ${code}) before answering ${key}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(m);
    });
  return { ask, exited };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
}

/**
 * Sends the load, waits for every case to be stored and for the bot to fall quiet (no new call at
 * the fake for half a second: what it posts after storing is load too), then collects the figures.
 */
async function measure(bot: ReturnType<typeof forkBot>, calls: () => number, withLogs: boolean, send: () => Promise<number[]>, stepsPosted: () => number): Promise<Run> {
  const here = monitorEventLoopDelay({ resolution: 2 });
  here.enable();
  const acks = await send();
  const expected = withLogs ? COMMANDS : 0;
  let counted = { stored: 0, distinct: 0 };
  await until(async () => (counted = await bot.ask({ count: true }, 'counted')).stored >= expected, 120_000);
  // Every case's first step posted (Discord's client may still hold posts in its rate-limit queues).
  await until(() => stepsPosted() >= expected, 120_000);
  let seen = -1;
  await until(() => seen === (seen = calls()), 60_000);
  await new Promise((r) => setTimeout(r, 500));
  here.disable();
  counted = await bot.ask({ count: true }, 'counted');
  const loop = await bot.ask({ stop: true }, 'stopped');
  await bot.exited;
  return { acks, ...loop, loadSideStallMs: here.max / 1e6, ...counted, expected };
}

async function slackRun(withLogs: boolean): Promise<Run> {
  const fake = await startFakeSlack(fakeOptions);
  const db = join(mkdtempSync(join(tmpdir(), 'load-slack-')), 'cases.db');
  const bot = forkBot();
  const { port } = await bot.ask({ start: { platform: 'slack', api: fake.api, db, botToken: 'xoxb-load', signingSecret: SIGNING_SECRET } }, 'ready');
  const big = fake.serveFile('big.log', bigLog());
  // Requests are made and signed before the clock starts: the generator's work is not the bot's.
  const requests = Array.from({ length: COMMANDS }, (_, i) => request(fake, i, withLogs, big));
  let t0 = 0;
  const posts = () => fake.calls.map((c) => ({ at: c.at, ok: c.status < 300 && c.result?.ok !== false, request: c.args }));
  const result = await measure(bot, () => fake.calls.length, withLogs, () => ((t0 = Date.now()), Promise.all(requests.map((r) => sendTimed(port!, r)))), () => firstSteps(posts(), t0).length);
  const firstStep = withLogs ? firstSteps(posts(), t0) : undefined;
  await fake.close();
  return { ...result, ...(firstStep ? { firstStep } : {}) };
}

/**
 * Milliseconds from `start` (every command is sent at once) to the first post of each case that
 * carries its step's buttons (their ids name the case): the diagnosis with its first step.
 */
function firstSteps(calls: { at: number; ok: boolean; request: unknown }[], start: number): number[] {
  const first = new Map<string, number>();
  for (const c of calls) {
    if (!c.ok) continue;
    for (const [, id] of JSON.stringify(c.request ?? '').matchAll(/coom:([A-Za-z0-9_-]{1,40}):\d/g)) if (!first.has(id!)) first.set(id!, c.at - start);
  }
  return [...first.values()];
}

/** What Slack would send for command `i`, as the bytes of an HTTP request. */
function request(fake: FakeSlack, i: number, withLogs: boolean, big: string): Buffer {
  const user = `U0LOAD${i}`;
  let raw: string;
  let type: string;
  if (withLogs && i < BIG) {
    const file = { id: `F0BIG${i}`, name: 'console.log', mimetype: 'text/plain', size: 7_900_000, url_private_download: big };
    raw = JSON.stringify(eventCallback({ type: 'app_mention', user, text: '<@U0BOT> here is my log', ts: newTs(), files: [file] }));
    type = 'application/json';
  } else {
    raw = form(slashPayload(fake, user, withLogs ? slackText(PASTES[i % PASTES.length]!) : 'help'));
    type = 'application/x-www-form-urlencoded';
  }
  const headers = { host: '127.0.0.1', 'content-type': type, 'content-length': String(Buffer.byteLength(raw)), connection: 'close', ...sign(raw, SIGNING_SECRET) };
  return Buffer.from(`POST /slack/events HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${raw}`);
}

/**
 * Sends one request on a connection of its own, as Slack does, and resolves with the milliseconds
 * until the acknowledgement's first bytes arrive. A bare socket, not fetch: a few hundred fetches
 * started at once would keep this process busy for longer than the bot takes to answer them.
 */
function sendTimed(port: number, request: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let ms: number | undefined;
    let head = '';
    // `connection: close`: the bot closes the connection once it has answered.
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      if (ms !== undefined) return;
      ms = performance.now() - t0;
      head = chunk.toString('latin1', 0, 32);
    });
    socket.on('error', reject);
    socket.on('close', () => (head.startsWith('HTTP/1.1 200') && ms !== undefined ? resolve(ms) : reject(new Error(`Slack request answered ${head.split('\r\n')[0] || 'nothing'}`))));
  });
}

async function discordRun(withLogs: boolean): Promise<Run> {
  // Discord's real limits are far below 500 posts a second; the fake's are raised so the run ends in minutes (acks are exempt anyway).
  const fake = await startFakeDiscord({ botId: BOT, guildId: GUILD, channels: [{ id: HELP, type: 0, name: 'help' }], limits: { route: 1000, global: 1000, windowMs: 1000 } });
  const db = join(mkdtempSync(join(tmpdir(), 'load-discord-')), 'cases.db');
  const bot = forkBot();
  await bot.ask({ start: { platform: 'discord', api: fake.api, db, token: TOKEN } }, 'ready');
  const h = { fake } as unknown as Harness;
  const big = Buffer.from(bigLog());
  let sent: { p: { id: string }; t0: number }[] = [];
  const users = Array.from({ length: COMMANDS }, (_, i) => ({ id: String(1_250_000_000_000_000_000n + BigInt(i)), username: `user${i}` }));
  const callbackOf = (id: string) => `/interactions/${id}/tok-${id}/callback`;
  const posts = () => fake.calls.map((c) => ({ at: c.at, ok: c.status < 300, request: c.body }));
  const result = await measure(bot, () => fake.calls.length, withLogs, async () => {
    sent = users.map((user, i) => {
      const options = !withLogs ? {} : i < BIG ? { file: { name: 'console.log', body: big } } : { log: PASTES[i % PASTES.length]! };
      const t0 = Date.now();
      return { p: slash(h, { ...options, user }), t0 };
    });
    const callbacks = () => fake.calls.filter((c) => c.path.endsWith('/callback'));
    await until(() => callbacks().length >= sent.length, 60_000);
    const at = new Map(callbacks().map((c) => [c.path, c.status < 300 ? c.at : Number.POSITIVE_INFINITY]));
    return sent.map(({ p, t0 }) => (at.get(callbackOf(p.id)) ?? Number.POSITIVE_INFINITY) - t0);
  }, () => firstSteps(posts(), 0).length);
  const firstStep = withLogs ? firstSteps(posts(), Math.min(...sent.map((x) => x.t0))) : undefined;
  await fake.close();
  return { ...result, ...(firstStep ? { firstStep } : {}) };
}

export async function benchChatLoad(): Promise<BenchResult> {
  const placed = placeGenerator();
  const rows: string[][] = [];
  const failures: string[] = [];
  const summary: Record<string, unknown> = { bench: 'chat-load', commands: COMMANDS, bigLogs: BIG };
  for (const [platform, run] of [
    ['slack', slackRun],
    ['discord', discordRun],
  ] as const) {
    const base = await run(false);
    const load = await run(true);
    const p50 = percentile(load.acks, 50);
    const p99 = percentile(load.acks, 99);
    const max = Math.max(...load.acks);
    const baseP50 = percentile(base.acks, 50);
    const baseP99 = percentile(base.acks, 99);
    const late = load.acks.filter((a) => a > ACK_LIMIT_MS).length;
    rows.push([
      platform,
      fmtMs(p50),
      fmtMs(p99),
      fmtMs(max),
      fmtMs(baseP99),
      fmtRatio(p99 / baseP99),
      fmtMs(load.stallMs),
      fmtMs(load.stallP99Ms),
      load.worst ? `${fmtMs(load.worst.ranMs)} / ${fmtMs(load.worst.waitedMs)}` : 'n/a',
      `${load.cpu.mainThreadMs === undefined ? 'n/a' : fmtMs(load.cpu.mainThreadMs / COMMANDS)} / ${fmtMs(load.cpu.processMs / COMMANDS)}`,
      load.firstStep?.length ? `${fmtMs(percentile(load.firstStep, 50))} / ${fmtMs(percentile(load.firstStep, 99))} (${load.firstStep.length})` : 'n/a',
      fmtMs(base.stallMs),
      fmtRatio(load.stallMs / base.stallMs),
      fmtMs(Math.max(load.loadSideStallMs, base.loadSideStallMs)),
      `${load.stored}/${load.expected} (${load.distinct} distinct)`,
    ]);
    if (late) failures.push(`${platform}: ${late} of ${COMMANDS} acknowledged after ${ACK_LIMIT_MS} ms`);
    if (load.stallP99Ms > STALL_P99_LIMIT_MS) failures.push(`${platform}: the bot's event-loop delay p99 ${Math.round(load.stallP99Ms)} ms (target ${STALL_P99_LIMIT_MS})`);
    if (load.stallMs > STALL_LIMIT_MS) {
      const why = load.worst ? ` (in its longest gap its thread ran ${Math.round(load.worst.ranMs)} ms and waited ${Math.round(load.worst.waitedMs)} ms for a core)` : '';
      failures.push(`${platform}: the bot's event loop stalled ${Math.round(load.stallMs)} ms${why}`);
    }
    if (load.stored !== load.expected || load.distinct !== load.expected) failures.push(`${platform}: ${load.stored} cases stored (${load.distinct} distinct) for ${load.expected} commands`);
    summary[platform] = {
      ackP50Ms: round(p50),
      ackP99Ms: round(p99),
      ackMaxMs: round(max),
      baselineAckP50Ms: round(baseP50),
      baselineAckP99Ms: round(baseP99),
      ackP50Ratio: round(p50 / baseP50),
      ackP99Ratio: round(p99 / baseP99),
      longestStallMs: round(load.stallMs),
      stallP99Ms: round(load.stallP99Ms),
      baselineStallMs: round(base.stallMs),
      stallRatio: round(load.stallMs / base.stallMs),
      ...(load.cpu.mainThreadMs !== undefined ? { mainThreadCpuMsPerCommand: round(load.cpu.mainThreadMs / COMMANDS) } : {}),
      processCpuMsPerCommand: round(load.cpu.processMs / COMMANDS),
      baselineMainThreadCpuMsPerCommand: base.cpu.mainThreadMs === undefined ? undefined : round(base.cpu.mainThreadMs / COMMANDS),
      ...(load.firstStep?.length ? { firstSteps: load.firstStep.length, firstStepP50Ms: round(percentile(load.firstStep, 50)), firstStepP99Ms: round(percentile(load.firstStep, 99)) } : {}),
      ...(load.worst ? { worstGapMs: round(load.worst.ms), worstGapRanMs: round(load.worst.ranMs), worstGapWaitedMs: round(load.worst.waitedMs) } : {}),
      loadSideStallMs: round(Math.max(load.loadSideStallMs, base.loadSideStallMs)),
      casesStored: load.stored,
      casesDistinct: load.distinct,
      casesExpected: load.expected,
    };
  }
  console.log(`\nchat-load — ${COMMANDS} simultaneous /comfyoom per platform, ${BIG} of them with an 8 MB log; the bot in its own process on every core, ${placed}`);
  console.log(
    table(['platform', 'ack p50', 'ack p99', 'ack max', 'baseline p99', 'p99 / baseline', 'bot stall', 'delay p99', 'ran / waited', 'CPU / command: main / all', 'first step p50 / p99', 'baseline stall', 'stall / baseline', 'load-side stall', 'cases stored'], rows),
  );
  return { name: 'chat-load', failures, summary: { ...summary, placed, ok: !failures.length } };
}
