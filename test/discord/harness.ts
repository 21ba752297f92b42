// Shared set-up for the Discord end-to-end tests: a fake Discord, a real SQLite file, the real
// engine and kb, and the real discord.js client started by startDiscord. Plus builders for the
// gateway payloads Discord would send.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { startDiscord, type RunningDiscord } from '../../src/adapters/discord/bot.ts';
import { BOT_PERMISSIONS, COMMAND } from '../../src/adapters/discord/commands.ts';
import { Engine, type Work } from '../../src/conversation/engine.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb, type Db } from '../../src/store/db.ts';
import { sqliteSql, type Sql } from '../../src/store/sql.ts';
import type { PasteReader } from '../../src/ingest/paste-links.ts';
import { kb } from '../helpers/kb.ts';
import { snowflake, startFakeDiscord, type ApiChannel, type ApiMessage, type Call, type FakeDiscord } from './fake-discord.ts';
import { PATIENCE_MS } from '../helpers/patience.ts';

export const BOT = '1100000000000000001';
export const GUILD = '1100000000000000002';
export const HELP = '1100000000000000003'; // a text channel
export const WATCHED = '1100000000000000004'; // a text channel in watch mode
export const VOICE = '1100000000000000005'; // a voice channel's text chat: no threads there
export const TOKEN = 'fake-bot-token.for-tests-only.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

export const ALICE = { id: '1200000000000000001', username: 'alice' };
export const BOB = { id: '1200000000000000002', username: 'bob' };
export const MOD = { id: '1200000000000000003', username: 'mod' };

type User = typeof ALICE;

const MEMBER_PERMS = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands;

export interface Harness {
  fake: FakeDiscord;
  db: Db;
  store: CaseStore;
  engine: Engine;
  bot: RunningDiscord;
  logs: string[];
  dbPath: string;
  /** Stops the client and starts a new one, with a new engine, on the same database and fake. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface SetupOptions {
  watchChannels?: string[];
  ratePerMinute?: number;
  /** Run without the privileged Message Content intent. */
  noMessageContent?: boolean;
  helperRole?: string;
  /** Extra channels (a forum, say) the fake knows. */
  channels?: ApiChannel[];
  /** Extra guild roles (the bot's managed role). */
  roles?: Record<string, unknown>[];
  /** More servers the bot is in, with their channels. */
  guilds?: { id: string; channels: ApiChannel[] }[];
  /** Where the engine's heavy work runs (default: inline). */
  work?: Work;
  /** The store's database (default: the SQLite file `db` of the harness). */
  sql?: Sql;
  /** How paste links are read (default: the network, which tests do not have). */
  readPaste?: PasteReader;
}

export async function setup(opts: SetupOptions = {}): Promise<Harness> {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'comfyoom-discord-')), 'cases.db');
  const fake = await startFakeDiscord({
    botId: BOT,
    guildId: GUILD,
    channels: [
      { id: HELP, type: 0, name: 'help' },
      { id: WATCHED, type: 0, name: 'oom-help' },
      { id: VOICE, type: 2, name: 'voice', bitrate: 64000, user_limit: 0 },
      ...(opts.channels ?? []),
    ],
    ...(opts.roles ? { roles: opts.roles } : {}),
    ...(opts.guilds ? { guilds: opts.guilds } : {}),
  });
  const logs: string[] = [];
  const start = async (db: Db) => {
    const store = new CaseStore(opts.sql ?? sqliteSql(db));
    const engine = new Engine({ kb, store, ...(opts.ratePerMinute ? { ratePerMinute: opts.ratePerMinute } : {}), ...(opts.work ? { work: opts.work } : {}), ...(opts.readPaste ? { readPaste: opts.readPaste } : {}) });
    const bot = await startDiscord({
      config: { token: TOKEN, watchChannels: opts.watchChannels ?? [], messageContent: !opts.noMessageContent, solvedTag: 'Solved', ...(opts.helperRole ? { helperRole: opts.helperRole } : {}) },
      engine,
      api: fake.api,
      archiveAfterMs: 50,
      log: (what, err) => logs.push(`${what}${err instanceof Error ? `: ${err.message}` : ''}`),
    });
    return { store, engine, bot };
  };
  const db = openDb(dbPath);
  const h: Harness = {
    fake,
    db,
    dbPath,
    logs,
    ...(await start(db)),
    async restart() {
      await h.bot.stop();
      h.db.close();
      h.db = openDb(dbPath);
      Object.assign(h, await start(h.db));
    },
    async close() {
      await h.bot.stop();
      await fake.close();
      h.db.close();
    },
  };
  return h;
}

// ---- payload builders -------------------------------------------------------------------------

/** What the builders need: the fake they send through (the guild comes from the channel). */
type Fake = Pick<Harness, 'fake'>;

const member = (u: User, moderator = false, admin = false) => ({
  user: { ...u, discriminator: '0', global_name: u.username, avatar: null },
  roles: [],
  joined_at: '2024-01-01T00:00:00.000Z',
  deaf: false,
  mute: false,
  flags: 0,
  permissions: String((moderator ? MEMBER_PERMS | PermissionFlagsBits.ManageMessages : MEMBER_PERMS) | (admin ? PermissionFlagsBits.ManageGuild : 0n)),
});

export interface Common {
  user?: User;
  moderator?: boolean;
  /** Manage Server: the server's admins. */
  admin?: boolean;
  /** The member's roles in the guild. */
  roles?: string[];
  channel?: string;
  locale?: string;
  appPermissions?: bigint;
}

export function interaction(h: Fake, type: number, data: unknown, c: Common, extra: Record<string, unknown> = {}) {
  const id = snowflake();
  const channel = h.fake.channels.get(c.channel ?? HELP)!;
  const guild = channel.guild_id ?? GUILD;
  return {
    id,
    token: `tok-${id}`,
    type,
    application_id: BOT,
    guild_id: guild,
    channel,
    channel_id: channel.id,
    member: { ...member(c.user ?? ALICE, c.moderator, c.admin), ...(c.roles ? { roles: c.roles } : {}) },
    locale: c.locale ?? 'en-US',
    guild_locale: 'en-US',
    app_permissions: String(c.appPermissions ?? BOT_PERMISSIONS),
    version: 1,
    data,
    entitlements: [],
    authorizing_integration_owners: { '0': guild },
    context: 0,
    ...extra,
  };
}

export type Option = { name: string; type: number; value: string };

/** `/comfyoom` with options; a `file` becomes an attachment served by the fake. */
export function slash(h: Fake, options: { log?: string; language?: 'en' | 'zh'; file?: { name: string; body: string | Buffer } } & Common = {}) {
  const opts: Option[] = [];
  const resolved: { attachments?: Record<string, unknown> } = {};
  if (options.log !== undefined) opts.push({ name: 'log', type: 3, value: options.log });
  if (options.language) opts.push({ name: 'language', type: 3, value: options.language });
  if (options.file) {
    const id = snowflake();
    const type = /\.png$/.test(options.file.name) ? 'image/png' : /\.(txt|log)$/.test(options.file.name) ? 'text/plain; charset=utf-8' : 'application/octet-stream';
    const url = h.fake.serveFile(`${id}/${options.file.name}`, options.file.body, type);
    const size = Buffer.byteLength(options.file.body);
    opts.push({ name: 'file', type: 11, value: id });
    resolved.attachments = { [id]: { id, filename: options.file.name, size, url, proxy_url: url, content_type: type } };
  }
  const p = interaction(h, 2, { id: snowflake(), name: COMMAND.diagnose, type: 1, options: opts, ...(resolved.attachments ? { resolved } : {}) }, options);
  h.fake.interact(p);
  return p;
}

export function statsCommand(h: Fake, since?: string, c: Common = {}, all?: boolean) {
  const options = [...(since ? [{ name: 'since', type: 3, value: since }] : []), ...(all !== undefined ? [{ name: 'all', type: 5, value: all }] : [])];
  const p = interaction(h, 2, { id: snowflake(), name: COMMAND.stats, type: 1, options }, { moderator: true, ...c });
  h.fake.interact(p);
  return p;
}

export function relabelCommand(h: Fake, caseId: string, entry: string, c: Common = {}) {
  const options = [
    { name: 'case', type: 3, value: caseId },
    { name: 'entry', type: 3, value: entry },
  ];
  const p = interaction(h, 2, { id: snowflake(), name: COMMAND.relabel, type: 1, options }, { moderator: true, ...c });
  h.fake.interact(p);
  return p;
}

export function contextMenu(h: Fake, target: ApiMessage, c: Common = {}) {
  const p = interaction(h, 2, { id: snowflake(), name: COMMAND.contextMenu, type: 3, target_id: target.id, resolved: { messages: { [target.id]: target } } }, { channel: target.channel_id, ...c });
  h.fake.interact(p);
  return p;
}

export function modalSubmit(h: Fake, customId: string, text: string, c: Common = {}) {
  const p = interaction(h, 5, { custom_id: customId, components: [{ type: 18, id: 1, component: { type: 4, id: 2, custom_id: 'log', value: text } }] }, c);
  h.fake.interact(p);
  return p;
}

/** Presses a button of a message the bot posted (looked up in the fake's store). */
export function press(h: Fake, message: ApiMessage, customId: string, c: Common = {}) {
  const p = interaction(h, 3, { custom_id: customId, component_type: 2 }, { channel: message.channel_id, ...c }, { message });
  h.fake.interact(p);
  return p;
}

/** A user posts a message (optionally replying to another). */
export function say(h: Fake, channel: string, user: User, content: string, extra: Partial<ApiMessage> = {}) {
  return h.fake.post({
    channel_id: channel,
    guild_id: h.fake.channels.get(channel)?.guild_id ?? GUILD,
    author: { ...user, discriminator: '0', global_name: user.username, avatar: null },
    member: { roles: [], joined_at: '2024-01-01T00:00:00.000Z', deaf: false, mute: false, flags: 0 },
    content,
    ...extra,
  });
}

// ---- reading the bot's calls --------------------------------------------------------------------

export const callback = (p: { id: string }) => (c: Call) => c.path === `/interactions/${p.id}/${`tok-${p.id}`}/callback`;
export const webhook = (p: { token: string }, tail = '') => (c: Call) => c.path === `/webhooks/${BOT}/${p.token}${tail}`;
export const original = (p: { token: string }) => webhook(p, '/messages/@original');
export const postIn = (channel: string) => (c: Call) => c.method === 'POST' && c.path === `/channels/${channel}/messages`;
export const threadFrom = (channel: string) => (c: Call) => c.method === 'POST' && new RegExp(`^/channels/${channel}/messages/\\d+/threads$`).test(c.path);

/** The message body a call carries, whether sent as an interaction callback or directly. */
export const bodyOf = (c: Call) => (c.path.endsWith('/callback') ? c.body?.data : c.body) ?? {};

export const textOf = (c: Call): string => {
  const b = bodyOf(c);
  return [b.content ?? '', ...(b.embeds ?? []).flatMap((e: any) => [e.title ?? '', e.description ?? ''])].join('\n');
};

export const customIds = (c: Call): string[] => (bodyOf(c).components ?? []).flatMap((r: any) => r.components.map((b: any) => b.custom_id));

/** The id of a message's button whose id ends in `:code` (w worked, s skip, …). */
export const button = (c: Call, code: string) => customIds(c).find((id) => id.endsWith(`:${code}`))!;

/** The message a message-creating call produced (the fake answers with it). */
export function messageFrom(c: Call): ApiMessage {
  if (!c.response?.id) throw new Error(`${c.method} ${c.path} did not answer with a message`);
  return c.response as ApiMessage;
}

/** Calls that create or edit a visible message. */
export const messageCalls = (h: Harness) => h.fake.calls.filter((c) => c.status < 300 && ['POST', 'PATCH'].includes(c.method) && (c.path.includes('/messages') || c.path.startsWith('/webhooks/') || c.path.endsWith('/callback')) && !c.path.endsWith('/threads'));

/** Waits until `check` holds: for effects the bot makes after a REST answer (SQLite writes). */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = PATIENCE_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A thread someone else opened (a forum post, say) that the fake knows about. */
export function addThread(h: Harness, parent: string, name = 'my workflow runs out of memory') {
  const id = snowflake();
  const thread = {
    id,
    type: 11,
    guild_id: GUILD,
    parent_id: parent,
    name,
    owner_id: ALICE.id,
    flags: 0,
    rate_limit_per_user: 0,
    message_count: 1,
    member_count: 1,
    thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date().toISOString(), locked: false },
  };
  h.fake.openThread(thread);
  return id;
}
