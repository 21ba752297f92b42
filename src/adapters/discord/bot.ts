// Wiring: a discord.js client with the intents the handlers need, events routed to them, and
// the RunningAdapter the bot runner expects; or, for the process that shards the bot, a client
// that only speaks REST.
import { createRequire } from 'node:module';
import { Client, Events, GatewayIntentBits, Options, Partials, Status, type RESTOptions } from 'discord.js';
import type { RunningAdapter } from '../running.ts';
import type { Engine } from '../../conversation/engine.ts';
import { admitAll, type Admit } from '../../ops/gate.ts';
import { Handlers, type Log } from './handlers.ts';
import { NO_PINGS } from './payload.ts';

/** The Discord bot's settings (app/config.ts reads them from the environment). */
export interface DiscordConfig {
  token: string;
  guildId?: string;
  watchChannels: string[];
  messageContent: boolean;
  helperRole?: string;
  solvedTag: string;
  digestChannel?: string;
}

export interface DiscordOptions {
  config: DiscordConfig;
  engine: Engine;
  /** REST base URL, e.g. a local fake Discord in tests (the gateway URL then comes from it). */
  api?: string;
  log: Log;
  /** Runs each event's handling; a graceful stop closes it (see ops/gate.ts). */
  admit?: Admit;
  /** How long a resolved case's thread stays open before it is archived (default a minute). */
  archiveAfterMs?: number;
}

export interface RunningDiscord extends RunningAdapter {
  client: Client;
}

/** What the privileged Message Content intent is needed for, told at start when it is off. */
export const WITHOUT_CONTENT =
  'running without the Message Content intent: slash commands, the message menu, buttons, DMs and messages that mention the bot work; watch mode and logs posted in a case thread without a mention are off (turn the intent on in the Developer Portal and set DISCORD_MESSAGE_CONTENT=true for them)';

/**
 * An HTTP agent of the undici that discord.js's REST is written for (6), found from discord.js
 * itself. Without one, REST sends through the process's default dispatcher, which the first undici
 * loaded creates: when Slack's Bolt (undici 7) came first, every Discord post carrying a file
 * (hand-overs, stats charts, digests) failed with "action is not a function".
 */
function restAgent(): RESTOptions['agent'] {
  const from = (path: string) => createRequire(path);
  const rest = from(from(import.meta.url).resolve('discord.js')).resolve('@discordjs/rest');
  const { Agent } = from(rest)('undici') as { Agent: new () => NonNullable<RESTOptions['agent']> };
  return new Agent();
}

/**
 * The bot reads what each event and interaction carries (the member's roles come with it) and
 * fetches the rest, so it keeps no reactions, presences, emoji or voice states: a bot in thousands
 * of servers would hold them for nothing. Guilds, channels and threads stay cached, and a channel's
 * last messages for half an hour: an edit is told from a second edit by the message before it.
 */
const CACHES = Options.cacheWithLimits({
  ...Options.DefaultMakeCacheSettings,
  MessageManager: 50,
  ReactionManager: 0,
  ReactionUserManager: 0,
  PresenceManager: 0,
  GuildEmojiManager: 0,
  GuildStickerManager: 0,
  GuildScheduledEventManager: 0,
  GuildBanManager: 0,
  GuildInviteManager: 0,
  StageInstanceManager: 0,
  VoiceStateManager: 0,
  AutoModerationRuleManager: 0,
  ThreadMemberManager: 0,
  GuildMemberManager: { maxSize: 200, keepOverLimit: (member) => member.id === member.client.user.id },
});

function wire(opts: DiscordOptions): { client: Client; handlers: Handlers } {
  const { messageContent } = opts.config;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, ...(messageContent ? [GatewayIntentBits.MessageContent] : [])],
    // DM channels are not cached before their first message; without this, DMs would be dropped.
    // Messages too: an edit or a deletion of a message sent before a restart still arrives.
    partials: [Partials.Channel, Partials.Message],
    // Also set per payload; this catches anything sent without one.
    allowedMentions: NO_PINGS,
    rest: { agent: restAgent(), ...(opts.api ? { api: opts.api } : {}) },
    makeCache: CACHES,
    sweepers: { ...Options.DefaultSweeperSettings, messages: { interval: 300, lifetime: 1800 } },
  });
  // The environment's choices hold in every server whose admins have not made their own.
  const { helperRole, watchChannels, digestChannel } = opts.config;
  opts.engine.settings.setDefaults('discord', { watch: watchChannels, ...(helperRole ? { helpers: helperRole } : {}), ...(digestChannel ? { digest: digestChannel } : {}) });
  const handlers = new Handlers({
    client,
    engine: opts.engine,
    messageContent,
    solvedTag: opts.config.solvedTag,
    archiveAfterMs: opts.archiveAfterMs ?? 60_000,
    log: opts.log,
  });
  return { client, handlers };
}

/** What the housekeeping asks of Discord: posting where a case lives, and the weekly digest. */
const housekeeping = (handlers: Handlers): Pick<RunningAdapter, 'platform' | 'deliver' | 'digest'> => ({
  platform: 'discord',
  deliver: (row, messages) => handlers.deliver(row, messages),
  digest: () => handlers.postDigests(),
});

/**
 * Discord over REST only, never logged in to the gateway: what the manager of the shards
 * (app/shards.ts) posts for housekeeping. REST needs no shard, so a shard that is down or
 * restarting holds none of it up.
 */
export function restDiscord(opts: Omit<DiscordOptions, 'admit'>): RunningDiscord {
  const { client, handlers } = wire(opts);
  client.rest.setToken(opts.config.token);
  return { ...housekeeping(handlers), client, stop: () => client.destroy() };
}

export async function startDiscord(opts: DiscordOptions): Promise<RunningDiscord> {
  const { log, admit = admitAll } = opts;
  const { messageContent } = opts.config;
  const { client, handlers } = wire(opts);
  client.on(Events.InteractionCreate, (i) => void admit(() => handlers.interaction(i)));
  client.on(Events.MessageCreate, (m) => void admit(() => handlers.message(m)));
  client.on(Events.MessageUpdate, (before, after) => void admit(() => handlers.edited(before, after)));
  client.on(Events.MessageDelete, (m) => void admit(() => handlers.deleted(m)));
  // An 'error' event without a listener would throw and end the process.
  client.on(Events.Error, (e) => log('client error', e));
  client.on(Events.ShardError, (e) => log('gateway error', e));
  if (!messageContent) log(WITHOUT_CONTENT);

  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  try {
    await client.login(opts.config.token);
    await ready;
  } catch (e) {
    await client.destroy();
    // Gateway close 4014: the portal refuses an intent asked for.
    if (/disallowed intents|privileged intent/i.test((e as Error).message)) {
      throw new Error('Discord refused the Message Content intent: turn it on in the Developer Portal (Bot → Privileged Gateway Intents), or set DISCORD_MESSAGE_CONTENT=false', { cause: e });
    }
    throw e;
  }

  return {
    ...housekeeping(handlers),
    client,
    problem: () => (client.ws.shards.size && client.ws.shards.every((s) => s.status === Status.Ready) ? undefined : `gateway not connected (${client.ws.shards.map((s) => Status[s.status]).join(', ') || 'no shard'})`),
    stop: () => client.destroy(),
  };
}
