// The bot side of bench/chat-load.ts, in a process of its own: the real app wiring (engine,
// SQLite, worker pool) behind the real Bolt app or discord.js client, pointed at the fakes the
// bench process hosts. Its event loop is then the bot's alone, as in production, so the stalls it
// measures (and reports over IPC) are the bot's, not the load generator's or the fakes'.
import { existsSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { LogLevel } from '@slack/bolt';
import { startDiscord } from '../src/adapters/discord/bot.ts';
import { startSlack } from '../src/adapters/slack/bot.ts';
import type { RunningAdapter } from '../src/adapters/running.ts';
import { openApp } from '../src/app/context.ts';
import { defaultThreads } from '../src/conversation/pool.ts';
import { sql } from 'kysely';
import { first } from '../src/store/sql.ts';

export type ToBot =
  | { start: { platform: 'slack'; api: string; db: string; botToken: string; signingSecret: string } }
  | { start: { platform: 'discord'; api: string; db: string; token: string } }
  | { count: true }
  | { stop: true };

export type FromBot =
  | { ready: { port?: number; workers: number } }
  | { counted: { stored: number; distinct: number } }
  | { stopped: { stallMs: number; stallP99Ms: number; worst?: Gap; cpu: { mainThreadMs?: number; processMs: number } } };

/** The event loop's longest gap as the probe saw it, and how much of it this thread ran or waited for a core (Linux). */
export interface Gap {
  ms: number;
  ranMs: number;
  waitedMs: number;
}

/** The monitor's sampling interval; a stall reads as at most this much longer than it was. */
const RESOLUTION_MS = 2;

const tell = (m: FromBot, then?: () => void) => process.send!(m, undefined, {}, then);

let app: Awaited<ReturnType<typeof openApp>> | undefined;
let adapter: RunningAdapter | undefined;
const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
let cpuFrom: NodeJS.CpuUsage | undefined;

/**
 * On a machine other processes share, a stall may be the scheduler's: this thread ready to run
 * and no core free. Linux's schedstat tells, per thread, the nanoseconds it ran and waited for
 * a core; a probe samples it every few ms and keeps the longest gap between its samples.
 */
const probe = (() => {
  if (!existsSync('/proc/thread-self/schedstat')) return undefined;
  const read = () => {
    const [ran = 0, waited = 0] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return { at: performance.now(), ran: ran / 1e6, waited: waited / 1e6 };
  };
  let last = read();
  let from = last.ran;
  let worst: Gap = { ms: 0, ranMs: 0, waitedMs: 0 };
  const timer = setInterval(() => {
    const now = read();
    if (now.at - last.at > worst.ms) worst = { ms: now.at - last.at, ranMs: now.ran - last.ran, waitedMs: now.waited - last.waited };
    last = now;
  }, 5);
  timer.unref();
  return {
    reset: () => void ((last = read()), (worst = { ms: 0, ranMs: 0, waitedMs: 0 }), (from = last.ran)),
    worst: () => worst,
    /** Milliseconds this thread ran since the last reset. */
    ran: () => read().ran - from,
  };
})();

process.on('message', (m: ToBot) => void handle(m));

async function handle(m: ToBot): Promise<void> {
  if ('start' in m) {
    const s = m.start;
    // Five hundred people, one paste each: the per-user limits are not what is measured.
    app = await openApp({ db: s.db, idleMs: 24 * 3_600_000, ratePerMinute: 1000 }, { pool: true });
    const discard = () => undefined;
    let port: number | undefined;
    if (s.platform === 'slack') {
      const slack = await startSlack({
        config: { botToken: s.botToken, mode: 'http', signingSecret: s.signingSecret, port: 0, helpers: [], admins: [] },
        engine: app.engine,
        slackApiUrl: s.api,
        retryConfig: { retries: 0 },
        host: '127.0.0.1',
        logger: { debug: discard, info: discard, warn: discard, error: discard, setLevel: discard, getLevel: () => LogLevel.ERROR, setName: discard },
      });
      port = slack.port;
      adapter = slack;
    } else {
      adapter = await startDiscord({ config: { token: s.token, watchChannels: [], messageContent: true, solvedTag: 'Solved' }, engine: app.engine, api: s.api, log: discard });
    }
    loop.enable();
    probe?.reset();
    cpuFrom = process.cpuUsage();
    tell({ ready: { ...(port !== undefined ? { port } : {}), workers: defaultThreads() } });
  } else if ('count' in m) {
    const row = (await first<{ stored: number; distinct_: number }>(app!.db.db, sql`SELECT COUNT(*) AS stored, COUNT(DISTINCT source) AS distinct_ FROM cases`))!;
    tell({ counted: { stored: row.stored, distinct: row.distinct_ } });
  } else {
    loop.disable();
    const used = process.cpuUsage(cpuFrom);
    const cpu = { processMs: (used.user + used.system) / 1000, ...(probe ? { mainThreadMs: probe.ran() } : {}) };
    const figures = { stallMs: loop.max / 1e6, stallP99Ms: loop.percentile(99) / 1e6, ...(probe ? { worst: probe.worst() } : {}), cpu };
    await adapter?.stop();
    await app?.close();
    // Pool workers and sockets are closed without waiting for them: the figures are what matters now.
    tell({ stopped: figures }, () => process.exit(0));
  }
}
