// Wiring: a discord.js client with the intents the handlers need, events routed to them, and
// the RunningAdapter the bot runner expects.
import { Client, Events, GatewayIntentBits, Partials } from 'discord.js';
import type { RunningAdapter } from '../../app/bots.ts';
import type { Config } from '../../app/config.ts';
import type { Engine } from '../../conversation/engine.ts';
import type { CaseStore } from '../../store/cases.ts';
import { Handlers, type Log } from './handlers.ts';
import { NO_PINGS } from './payload.ts';

export interface DiscordOptions {
  config: NonNullable<Config['discord']>;
  engine: Engine;
  store: CaseStore;
  /** REST base URL, e.g. a local fake Discord in tests (the gateway URL then comes from it). */
  api?: string;
  log?: Log;
}

export interface RunningDiscord extends RunningAdapter {
  client: Client;
}

const stderrLog: Log = (what, err) => {
  const detail = err instanceof Error ? `: ${err.message}` : err === undefined ? '' : `: ${String(err)}`;
  process.stderr.write(`comfyoom discord: ${what}${detail}\n`);
};

export async function startDiscord(opts: DiscordOptions): Promise<RunningDiscord> {
  const log = opts.log ?? stderrLog;
  const client = new Client({
    // MessageContent is privileged; without it replies to tracebacks and watch mode see empty text.
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    partials: [Partials.Channel],
    // Also set per payload; this catches anything sent without one.
    allowedMentions: NO_PINGS,
    ...(opts.api ? { rest: { api: opts.api } } : {}),
  });
  const handlers = new Handlers({ client, engine: opts.engine, store: opts.store, watchChannels: opts.config.watchChannels, log });
  client.on(Events.InteractionCreate, (i) => void handlers.interaction(i));
  client.on(Events.MessageCreate, (m) => void handlers.message(m));
  // An 'error' event without a listener would throw and end the process.
  client.on(Events.Error, (e) => log('client error', e));
  client.on(Events.ShardError, (e) => log('gateway error', e));

  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  try {
    await client.login(opts.config.token);
    await ready;
  } catch (e) {
    await client.destroy();
    throw e;
  }

  return {
    platform: 'discord',
    client,
    deliver: (row, messages) => handlers.deliver(row, messages),
    stop: () => client.destroy(),
  };
}
