// One shard of the Discord bot, in a process the ShardingManager forked (shards.ts): its gateway
// client, and the engine over the shared database. What must happen once (housekeeping, Slack, the
// operations port) stays with the manager. discord.js reads which shard this is from SHARDS and
// SHARD_COUNT in the environment and tells the manager over IPC when it is ready.
import { parseArgs } from 'node:util';
import { runBots } from './bots.ts';
import { loadConfig } from './config.ts';
import { createLogger } from '../ops/log.ts';
import { API_OPTION, shardConfig } from './shards.ts';

// A manager that died (killed, crashed) leaves no orphans connected to the gateway: its successor's shards would receive the same events.
const orphaned = () => process.kill(process.pid, 'SIGTERM');
process.once('disconnect', orphaned);
// discord.js reports each gateway change to the manager; with the manager gone those reports fail, and there is nobody left to tell.
process.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'ERR_IPC_CHANNEL_CLOSED') throw e;
});

const api = parseArgs({ options: { [API_OPTION]: { type: 'string' } } }).values[API_OPTION];
const config = shardConfig(loadConfig());
const log = createLogger(config.log).child({ shard: Number(process.env.SHARDS) });
await runBots(config, { log, ...(typeof api === 'string' ? { discordApi: api } : {}) }, { housekeeping: false, shard: true });
