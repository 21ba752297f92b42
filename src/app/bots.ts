// Runs the chat adapters whose tokens are configured, side by side, on one engine and one database,
// with the operations port when one is set, until SIGTERM or SIGINT stops them gracefully.
import type { webApi } from '@slack/bolt';
import type { CaseStore } from '../store/cases.ts';
import type { RunningAdapter } from '../adapters/running.ts';
import type { Engine } from '../conversation/engine.ts';
import { storeProblem } from '../store/errors.ts';
import { Gate } from '../ops/gate.ts';
import { storeCheck, type Check } from '../ops/health.ts';
import { startOpsServer, type OpsServer } from '../ops/http.ts';
import { instruments } from '../ops/instrument.ts';
import { createLogger, eventLog, type Logger } from '../ops/log.ts';
import { createMetrics, type Metrics } from '../ops/metrics.ts';
import { answerMetricsRequests, shardMetrics } from '../ops/shard-metrics.ts';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { ConfigError, type Config } from './config.ts';
import type { Channel } from '../ingest/shared-ocr.ts';
import { openApp } from './context.ts';
import type { RunningShards } from './shards.ts';


/**
 * Idle notices in flight at once. One at a time, a sweep of a thousand cases took twenty seconds
 * and more of round trips (a channel fetched, then a post, for each), holding up the next round,
 * retention, the digest and a stop; more at once than this only wait in the platforms' clients,
 * which keep to their rate limits themselves.
 */
const NOTICES_AT_ONCE = 8;

/**
 * Reminds, then abandons, idle cases (even when nobody writes) and posts each notice where its case lives.
 * A failed post is left for the log: the abandonment is already recorded.
 */
export async function sweepIdle(engine: Engine, store: CaseStore, adapters: RunningAdapter[], log: Logger): Promise<number> {
  let delivered = 0;
  let deliveredClosed = 0;
  const swept = await engine.sweep(adapters.map((a) => a.platform));
  let next = 0;
  const notify = async () => {
    while (next < swept.length) {
      const { caseId, messages, closed } = swept[next++]!;
      try {
        const row = (await store.get(caseId))?.row;
        const adapter = row && adapters.find((r) => r.platform === row.platform);
        if (!row || !adapter) continue;
        await adapter.deliver(row, messages);
        delivered++;
        if (closed) deliveredClosed++;
      } catch (err) {
        log.warn({ err, caseId }, 'could not post the idle notice');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(NOTICES_AT_ONCE, swept.length) }, notify));
  const closes = swept.filter((s) => s.closed).length;
  if (closes) log.info({ swept: closes, delivered: deliveredClosed }, 'idle cases closed');
  if (closes < swept.length) log.info({ reminded: swept.length - closes, delivered: delivered - deliveredClosed }, 'idle cases reminded');
  return delivered;
}

/**
 * The bots' periodic housekeeping: idle cases abandoned (and told), then the cases past retention
 * deleted. A failure (the database locked for too long, a full disk) is logged and left to the
 * next round; the bots keep answering.
 */
export async function housekeep(engine: Engine, store: CaseStore, adapters: RunningAdapter[], config: Pick<Config, 'db' | 'retentionDays'>, log: Logger): Promise<void> {
  try {
    await sweepIdle(engine, store, adapters, log);
    await engine.expire(config.retentionDays);
    await store.prune(Date.now(), 86_400_000);
    for (const a of adapters) await a.digest?.();
  } catch (e) {
    log.error({ err: storeProblem(e, config.db) ?? e }, 'housekeeping failed, will retry');
  }
}

/** Where the platforms are, and where the log goes: tests and benches point them at local fakes. */
export interface Edges {
  discordApi?: string;
  slackApiUrl?: string;
  slackRetry?: webApi.RetryOptions;
  /** Slack HTTP mode's interface (default: all). */
  slackHost?: string;
  log?: Logger;
}

export interface Bots {
  running: RunningAdapter[];
  log: Logger;
  /** The operations port, when one is configured. */
  ops?: OpsServer;
  metrics?: Metrics;
  /** Stops taking work, lets what is in flight finish, then closes the platforms, the port and the store. */
  stop(): Promise<void>;
}

/**
 * What this process runs besides its platforms. A sharded bot's shards leave the housekeeping
 * (retention at start, the idle sweep, the weekly digest) to their manager, which runs it once for
 * all of them and keeps running it while a shard is down.
 */
export interface Part {
  housekeeping: boolean;
  /** A shard of a sharded bot: it keeps figures for its manager's /metrics, having no port of its own. */
  shard?: boolean;
}

/** Idle cases are swept four times per idle time, and at least every 10 minutes (retention and the digest with them). */
const housekeepEveryMs = (idleMs: number) => Math.max(1_000, Math.min(10 * 60_000, idleMs / 4));


/**
 * How long a stop waits for work in flight. What outlasts it is mostly a post that a platform keeps
 * refusing while its client retries for minutes; that case is stored before anything is posted, so
 * leaving the post loses nothing.
 */
const DRAIN_MS = 3_000;
/** From the signal to the end of the process, whatever happens: docker stop kills at 10 s, and a restart should be quick. */
export const STOP_LIMIT_MS = 5_000;
/** What a stop keeps for closing the connections, the port and the store after the drain. */
const CLOSE_MS = 1_500;

/** Waits for a promise until a deadline (epoch ms); whether it settled by then. */
async function settledBy(p: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()), false)));
  try {
    return await Promise.race([p.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts every configured platform. One that fails to start (a wrong token, an intent Discord
 * refuses, no network) is reported and left out; the others run. Undefined when none did.
 */
export async function startBots(config: Config, edges: Edges = {}, part: Part = { housekeeping: true }): Promise<Bots | undefined> {
  const log = edges.log ?? createLogger(config.log);
  const metrics = config.http || part.shard ? createMetrics() : undefined;
  if (part.shard && metrics) answerMetricsRequests(metrics.registry);
  // A shard's screenshots are read by its manager's one OCR pool.
  const app = await openApp(config, { pool: true, ...(part.shard && process.send ? { ocrAt: process as Channel } : {}), ...(metrics ? { instruments: instruments(metrics) } : {}) });
  const gate = new Gate();
  if (part.housekeeping) await app.engine.expire(config.retentionDays);

  const starts: [string, () => Promise<RunningAdapter>][] = [];
  if (config.discord) {
    const discord = config.discord;
    starts.push([
      'Discord',
      async () => {
        const [{ startDiscord }, { startShards }, { measureDiscord }] = await Promise.all([import('../adapters/discord/bot.ts'), import('./shards.ts'), import('../ops/discord.ts')]);
        const opts = { engine: app.engine, log: eventLog(log.child({ platform: 'discord' })), ...(edges.discordApi ? { api: edges.discordApi } : {}) };
        const { shards } = discord;
        const running = shards === undefined ? await startDiscord({ ...opts, config: discord, admit: gate.admit }) : await startShards({ ...opts, ocr: app.ocr, config: { ...discord, shards }, stopLimitMs: STOP_LIMIT_MS });
        if (metrics) measureDiscord(running.client, metrics);
        return running;
      },
    ]);
  }
  if (config.slack) {
    const slack = config.slack;
    starts.push([
      'Slack',
      async () => {
        const [{ startSlack }, { measureSlack, boltLogger }] = await Promise.all([import('../adapters/slack/bot.ts'), import('../ops/slack.ts')]);
        const running = await startSlack({
          config: slack,
          engine: app.engine,
          logger: boltLogger(log.child({ platform: 'slack' })),
          admit: gate.admit,
          ...(edges.slackApiUrl || slack.apiUrl ? { slackApiUrl: edges.slackApiUrl ?? slack.apiUrl } : {}),
          ...(edges.slackRetry ? { retryConfig: edges.slackRetry } : {}),
          ...(edges.slackHost ? { host: edges.slackHost } : {}),
        });
        if (metrics) measureSlack(running.app, metrics);
        return running;
      },
    ]);
  }

  // Ready only when every configured platform is connected: one that did not start is not ready.
  const platforms = new Map<string, RunningAdapter | string>(starts.map(([name]) => [name.toLowerCase(), 'starting']));
  const checks = (): Check[] => [
    ...[...platforms].map(([name, p]): Check => ({ name, problem: () => (typeof p === 'string' ? p : p.problem?.()) })),
    storeCheck(app.db),
  ];
  let ops: OpsServer | undefined;
  try {
    ops = config.http && metrics ? await startOpsServer({ ...config.http, checks, metrics: () => gatherMetrics(metrics.registry, platforms.get('discord')) }) : undefined;
  } catch (e) {
    app.close();
    throw new ConfigError([`COMFYOOM_HTTP_PORT: cannot listen on ${config.http!.host}:${config.http!.port}: ${(e as Error).message}`]);
  }

  const running = await startAll(
    starts.map(([name, start]) => [
      name,
      async () => {
        try {
          const r = await start();
          platforms.set(name.toLowerCase(), r);
          return r;
        } catch (e) {
          platforms.set(name.toLowerCase(), `did not start: ${(e as Error).message}`);
          throw e;
        }
      },
    ]),
    (line) => log.error(line.trim()),
  );
  if (!running.length) {
    await ops?.close();
    await app.close();
    return undefined;
  }
  // Each round is timed from the end of the one before: a long one (hundreds of idle notices to post) never overlaps the next.
  let sweeper: NodeJS.Timeout | undefined;
  const nextRound = () => {
    sweeper = setTimeout(() => void gate.admit(() => housekeep(app.engine, app.store, running, config, log)).then(() => sweeper && nextRound()), housekeepEveryMs(config.idleMs));
  };
  if (part.housekeeping) nextRound();
  log.info({ platforms: running.map((r) => r.platform), ...(ops ? { opsPort: ops.port } : {}) }, 'connected');
  return {
    running,
    log,
    ...(ops ? { ops } : {}),
    ...(metrics ? { metrics } : {}),
    stop: async () => {
      const deadline = Date.now() + STOP_LIMIT_MS - 500;
      clearTimeout(sweeper);
      sweeper = undefined;
      const drain = Math.min(DRAIN_MS, deadline - CLOSE_MS - Date.now());
      const left = await gate.close(drain);
      if (left) log.warn({ left }, `work still in flight after ${drain} ms (a platform refusing its posts, most likely); stopping anyway, its cases are stored`);
      const closing = running.map((r) => r.stop().catch((err: unknown) => log.warn({ err, platform: r.platform }, 'closing the connection failed')));
      if (!(await settledBy(Promise.all(closing), deadline - 500))) log.warn('a platform connection did not close in time; leaving it');
      await settledBy(Promise.all([ops?.close(), app.close()]), deadline);
    },
  };
}

/** This process's figures, and a shard manager's shards' added to them (what each shard counted is in its own process). */
async function gatherMetrics(own: Registry, discord: RunningAdapter | string | undefined): Promise<Registry> {
  if (typeof discord !== 'object' || !('manager' in discord)) return own;
  return AggregatorRegistry.aggregate([await own.getMetricsAsJSON(), ...(await shardMetrics((discord as RunningShards).manager))]);
}

/**
 * `comfyoom start` with chat tokens: the bots until SIGTERM or SIGINT, then a graceful stop, and the
 * process ends, with 0 once stopped and 1 when no platform started. It ends the process itself: a
 * platform's client may still hold timers for calls it retries, which nobody waits for any more.
 */
export async function runBots(config: Config, edges: Edges = {}, part?: Part): Promise<never> {
  const log = edges.log ?? createLogger(config.log);
  // Listened for from the start: a platform that cannot be reached is retried for minutes, and a stop must not wait for it.
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const starting = startBots(config, { ...edges, log }, part);
  const first = await Promise.race([starting, signalled]);
  if (first === undefined) process.exit(1);
  const signal = typeof first === 'string' ? first : await signalled;
  // Unreferenced: it ends the process only if something still holds it open by then (a platform still connecting, a close that hangs).
  setTimeout(() => {
    log.warn(`not stopped within ${STOP_LIMIT_MS} ms (a platform still connecting, or a connection that would not close); exiting, every answer is stored`);
    process.exit(0);
  }, STOP_LIMIT_MS).unref();
  log.info({ signal }, 'stopping: no new work, finishing what is in flight');
  const bots = typeof first === 'string' ? await starting : first;
  await bots?.stop();
  log.info('stopped');
  process.exit(0);
}

/** Starts the platforms side by side; each failure is told by name and leaves the others running. */
export async function startAll(starts: [string, () => Promise<RunningAdapter>][], log: (line: string) => void): Promise<RunningAdapter[]> {
  const started = await Promise.all(
    starts.map(async ([name, start]) => {
      try {
        return await start();
      } catch (e) {
        log(`comfyoom: could not connect to ${name}, going on without it: ${(e as Error).message}\n`);
        return undefined;
      }
    }),
  );
  return started.filter((r): r is RunningAdapter => r !== undefined);
}
