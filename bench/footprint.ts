// Footprint: the resident memory of the real bot (bench/footprint-bot.mjs: Discord and Slack
// against the fakes this process hosts, SQLite, its worker and OCR pools, run from dist/ as
// `npm start` runs it) at idle, at the peak of a burst of 20 screenshots and 20 large logs on
// Discord, and after a quiet spell. The baseline, in the same run: the two chat libraries alone,
// connected to the same fakes (bench/footprint-bare.mjs).
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distIsFresh } from '../scripts/dist-fresh.mjs';
import { MALLOC_TUNING } from '../scripts/malloc.mjs';
import { startFakeDiscord, type FakeDiscord } from '../test/discord/fake-discord.ts';
import { BOT, GUILD, HELP, slash, TOKEN, type Harness } from '../test/discord/harness.ts';
import { startFakeSlack } from '../test/slack/fake-slack.ts';
import { BOT_TOKEN, fakeOptions, SECRET } from '../test/slack/harness.ts';
import { strict } from '../test/helpers/corpus.ts';
import { renderScreenshot, STYLES } from '../test/helpers/screenshot.ts';
import { type BenchResult, fmtRatio, round, table } from './lib/measure.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;
const TARGET = { idleMiB: 200, afterMiB: 250 };
const BURST = { screenshots: 20, logs: 20 };
/** The pools stop after a quiet minute; read a little after that. */
const AFTER_MS = 70_000;
/** Idle is read once start-up's garbage has had time to go. */
const SETTLE_MS = 5_000;

/** Resident memory of a process, every thread's, from /proc. */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
/** The processes a process started (a shard manager's shards). */
const childrenOf = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
/** A shard manager and its shards, together. */
const treeRss = (pid: number) => rssOf(pid) + childrenOf(pid).reduce((n, c) => n + rssOf(c), 0);
const SHARDS = 2;
/** Each shard a machine adds: its gateway client, engine and caches, with no OCR workers of its own. */
const SHARD_TARGET_MIB = 150;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * With glibc's tuning as `npm start` sets it on Node 22.15 and later, and the image always
 * (scripts/malloc.mjs); Node 20 cannot restart itself with it, so it is given here.
 */
function start(script: string, discordApi: string, slackApi: string, shards?: number): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  const child = fork(join(ROOT, 'bench', script), { execArgv: [], stdio: 'inherit', env: { ...process.env, ...MALLOC_TUNING } });
  const db = join(mkdtempSync(join(tmpdir(), 'footprint-')), 'cases.db');
  child.send({ start: { discordApi, slackApi, db, discordToken: TOKEN, slackToken: BOT_TOKEN, signingSecret: SECRET, ...(shards ? { shards } : {}) } });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} ended (code ${code}) before it was ready`)));
    child.once('message', () => {
      child.removeAllListeners('exit');
      resolve({
        child,
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.send({ stop: true });
          }),
      });
    });
  });
}

async function fakes() {
  const discord = await startFakeDiscord({ botId: BOT, guildId: GUILD, channels: [{ id: HELP, type: 0, name: 'help' }], limits: { route: 1000, global: 1000, windowMs: 1000 } });
  const slack = await startFakeSlack(fakeOptions);
  return { discord, slack, close: async () => (await discord.close(), await slack.close()) };
}

/** Waits until the fake has seen no call for `quietMs`. */
async function quiet(fake: FakeDiscord, quietMs: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  let seen = -1;
  while (Date.now() < end && seen !== fake.calls.length) {
    seen = fake.calls.length;
    await sleep(quietMs);
  }
}

/** A log of about `bytes`, its error at the end, as a console that ran for hours leaves it. */
function largeLog(paste: string, bytes: number): string {
  const noise = 'got prompt\nloaded partially 4096.0 MB 100%|####| 20/20 [00:10<00:00]\n';
  return noise.repeat(Math.ceil(bytes / noise.length)).slice(0, bytes - paste.length - 1) + '\n' + paste;
}

export async function benchFootprint(): Promise<BenchResult> {
  if (!distIsFresh(ROOT)) execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  const failures: string[] = [];

  const bare = await fakes();
  const libs = await start('footprint-bare.mjs', bare.discord.api, bare.slack.api);
  await sleep(SETTLE_MS);
  const bareRss = rssOf(libs.child.pid!);
  await libs.stop();
  await bare.close();

  const f = await fakes();
  const bot = await start('footprint-bot.mjs', f.discord.api, f.slack.api);
  await sleep(SETTLE_MS);
  const idle = rssOf(bot.child.pid!);
  const pastes = strict.filter((s) => s.category.startsWith('oom_')).slice(0, BURST.screenshots + BURST.logs);
  const shots = pastes.slice(0, BURST.screenshots).map((s, i) => renderScreenshot(s.text, i % 2 ? STYLES.consoleDark : STYLES.discord).image);
  const logs = pastes.slice(BURST.screenshots).map((s, i) => largeLog(s.text, (4 + (i % 5)) * 1_000_000));
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(bot.child.pid!))), 100);
  const h = { fake: f.discord } as unknown as Harness;
  const users = (i: number) => ({ user: { id: String(1_260_000_000_000_000_000n + BigInt(i)), username: `burst${i}` } });
  const t0 = Date.now();
  const tokens = [
    ...shots.map((image, i) => slash(h, { file: { name: `shot${i}.png`, body: image }, ...users(i) }).token),
    ...logs.map((text, i) => slash(h, { file: { name: `console${i}.log`, body: text }, ...users(100 + i) }).token),
  ];
  const answered = () => tokens.filter((t) => f.discord.interaction(t).answer !== undefined).length;
  const end = Date.now() + 300_000;
  while (answered() < tokens.length && Date.now() < end) await sleep(100);
  const burstMs = Date.now() - t0;
  // What it posts after answering (threads, first steps) is part of the burst too.
  await quiet(f.discord, 1_000, 60_000);
  clearInterval(sampler);
  await sleep(AFTER_MS);
  const after = rssOf(bot.child.pid!);
  await bot.stop();
  await f.close();

  // Sharded: a manager (Slack, housekeeping, the machine's one OCR pool) and one shard, then two.
  const perShards: number[] = [];
  for (const count of [1, SHARDS]) {
    const sf = await fakes();
    const manager = await start('footprint-bot.mjs', sf.discord.api, sf.slack.api, count);
    await sleep(SETTLE_MS);
    perShards.push(treeRss(manager.child.pid!));
    await manager.stop();
    await sf.close();
  }
  const perShard = (perShards[1]! - perShards[0]!) / (SHARDS - 1);
  if (perShard > SHARD_TARGET_MIB * MiB) failures.push(`each added shard ${round(perShard / MiB)} MiB (target under ${SHARD_TARGET_MIB})`);

  if (idle > TARGET.idleMiB * MiB) failures.push(`idle ${round(idle / MiB)} MiB (target under ${TARGET.idleMiB})`);
  if (after > TARGET.afterMiB * MiB) failures.push(`${AFTER_MS / 1000} s after the burst ${round(after / MiB)} MiB (target under ${TARGET.afterMiB})`);
  const mib = (b: number) => `${(b / MiB).toFixed(0)} MiB`;
  console.log(`\nfootprint — resident memory of the bot (Discord + Slack on the fakes, SQLite), run from dist/; the baseline: discord.js and Bolt alone, connected`);
  console.log(
    table(
      ['', 'bot', 'libraries alone', 'ratio', 'target'],
      [
        ['idle', mib(idle), mib(bareRss), fmtRatio(idle / bareRss), `< ${TARGET.idleMiB} MiB`],
        [`peak, ${BURST.screenshots} screenshots + ${BURST.logs} logs of 4-8 MB (answered in ${(burstMs / 1000).toFixed(1)} s)`, mib(peak), '', fmtRatio(peak / bareRss), ''],
        [`${AFTER_MS / 1000} s after the burst`, mib(after), '', fmtRatio(after / bareRss), `< ${TARGET.afterMiB} MiB`],
        [`sharded, idle: manager + 1 shard / + ${SHARDS} shards`, `${mib(perShards[0]!)} / ${mib(perShards[1]!)}`, '', '', ''],
        ['each added shard', mib(perShard), '', fmtRatio(perShard / bareRss), `< ${SHARD_TARGET_MIB} MiB`],
      ],
    ),
  );
  if (answered() < tokens.length) failures.push(`${answered()} of ${tokens.length} commands answered`);
  return {
    name: 'footprint',
    failures,
    summary: { bench: 'footprint', idleMiB: round(idle / MiB), peakMiB: round(peak / MiB), afterMiB: round(after / MiB), librariesMiB: round(bareRss / MiB), idleRatio: round(idle / bareRss), afterRatio: round(after / bareRss), shardedOneMiB: round(perShards[0]! / MiB), shardedTwoMiB: round(perShards[1]! / MiB), perShardMiB: round(perShard / MiB), burstSeconds: round(burstMs / 1000), ok: !failures.length, failures },
  };
}
