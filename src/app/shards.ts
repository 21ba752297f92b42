// Discord sharded on one machine (COMFYOOM_SHARDS): discord.js' ShardingManager runs each shard's
// gateway client in a process of its own (shard.ts) and starts it again when that process dies.
// This process, the manager, connects to no gateway. It keeps what must happen once (the
// housekeeping: idle sweep, retention, weekly digest; Slack; the operations port), so a crashed
// shard stops none of it, and it posts for the housekeeping over REST, which needs no shard.
// Every process opens the same SQLite file: WAL, writes that take the lock from their start, and
// one case per thread and per message kept by unique keys, which hold across processes.
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Routes, ShardingManager, type RESTGetAPIGatewayBotResult, type Shard } from 'discord.js';
import { restDiscord, type DiscordOptions, type RunningDiscord } from '../adapters/discord/bot.ts';
import type { Config } from './config.ts';
import type { Ocr } from '../ingest/ocr.ts';
import { serveOcr } from '../ingest/shared-ocr.ts';

/** The shard process's entry: plain JavaScript, so it starts from the sources (through tsx) and from dist/ alike. */
const SHARD_ENTRY = new URL('./shard-entry.mjs', import.meta.url);

/** The shards' option for the REST base URL (a local fake in tests); see shard.ts. */
export const API_OPTION = 'discord-api';

/** Discord's window for max_concurrency identifies. */
const IDENTIFY_WINDOW_MS = 5_000;
/** How long a shard has to connect before its start counts as failed. */
const READY_TIMEOUT_MS = 60_000;
/** A shard still stopping this long before the manager's own time to stop is up is killed: an orchestrator would kill both then anyway. */
const SHARD_STOP_MARGIN_MS = 1_000;

export interface ShardsOptions extends Omit<DiscordOptions, 'admit'> {
  config: DiscordOptions['config'] & { shards: 'auto' | number };
  /** The machine's one OCR pool: the shards send their prepared screenshots here. */
  ocr: Ocr;
  /** How long this process has to stop, from the signal (the runner's limit). */
  stopLimitMs: number;
}

export interface RunningShards extends RunningDiscord {
  manager: ShardingManager;
}

export async function startShards(opts: ShardsOptions): Promise<RunningShards> {
  const { log, config } = opts;
  const courier = restDiscord(opts);
  const gateway = (await courier.client.rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
  const total = config.shards === 'auto' ? gateway.shards : config.shards;
  const manager = managerFor(SHARD_ENTRY, total, config.token, opts.api ? [`--${API_OPTION}`, opts.api] : []);
  manager.on('shardCreate', (shard: Shard) => {
    // Shards read the same settings as this process; ShardingManager adds only which shard each is.
    shard.env = { ...process.env, SHARDING_MANAGER: 'true', SHARDING_MANAGER_MODE: 'process', SHARDS: String(shard.id), SHARD_COUNT: String(total), DISCORD_TOKEN: config.token };
    shard.on('death', (child) => {
      const code = 'exitCode' in child ? (child.exitCode ?? child.signalCode) : 'worker';
      log(`shard ${shard.id} of ${total} ended; the manager starts it again`, new Error(`the shard's process exited (${code})`));
    });
    shard.on('error', (e) => log(`shard ${shard.id} could not be started again`, e));
    serveOcr(shard, opts.ocr);
  });
  try {
    // Discord lets max_concurrency sessions identify every 5 s (shards 0 to max_concurrency - 1 at
    // once, and so on): shards start in batches of that many, a batch 5 s after the one before.
    const batch = gateway.session_start_limit.max_concurrency;
    for (let first = 0; first < total; first += batch) {
      const shards = [...Array(Math.min(batch, total - first)).keys()].map((i) => manager.createShard(first + i));
      await Promise.all([...shards.map((s) => s.spawn(READY_TIMEOUT_MS)), first + batch < total ? sleep(IDENTIFY_WINDOW_MS) : undefined]);
    }
  } catch (e) {
    await stopAll(manager, opts.stopLimitMs);
    await courier.stop();
    throw e;
  }
  log(`${total} shard${total === 1 ? '' : 's'} connected${config.shards === 'auto' ? " (Discord's recommendation)" : ''}`);
  return {
    ...courier,
    manager,
    problem: () => {
      const down = manager.shards.filter((s) => !s.ready).map((s) => s.id);
      return down.length ? `shard${down.length === 1 ? '' : 's'} ${down.join(', ')} of ${total} not connected` : undefined;
    },
    stop: async () => {
      await stopAll(manager, opts.stopLimitMs);
      await courier.stop();
    },
  };
}

/** A shard's part of the configuration: Discord alone, unsharded, without the port the manager holds. */
export function shardConfig({ slack: _slack, http: _http, discord, ...common }: Config): Config {
  if (!discord) throw new Error('a shard runs the Discord bot, which needs DISCORD_TOKEN');
  const { shards: _shards, ...unsharded } = discord;
  return { ...common, discord: unsharded };
}

function managerFor(entry: URL, total: number, token: string, shardArgs: string[]): ShardingManager {
  const marks = { SHARDING_MANAGER: process.env.SHARDING_MANAGER, SHARDING_MANAGER_MODE: process.env.SHARDING_MANAGER_MODE, DISCORD_TOKEN: process.env.DISCORD_TOKEN };
  const shardList = [...Array(total).keys()];
  const manager = new ShardingManager(fileURLToPath(entry), { totalShards: total, shardList, mode: 'process', respawn: true, token, shardArgs, execArgv: [] });
  // The constructor marks this process as a shard in its environment, which would make any client
  // made here later (the REST courier of a restart, a test's) report to a parent it does not have.
  for (const [k, v] of Object.entries(marks)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  return manager;
}

/** SIGTERM to every shard (each stops gracefully, shard.ts), none started again; resolves when all have ended. */
async function stopAll(manager: ShardingManager, stopLimitMs: number): Promise<void> {
  await Promise.all(
    manager.shards.map(async (shard) => {
      const child = shard.process;
      if (!child) return;
      shard.kill();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const late = setTimeout(() => child.kill('SIGKILL'), stopLimitMs - SHARD_STOP_MARGIN_MS);
      await once(child, 'exit');
      clearTimeout(late);
    }),
  );
}
