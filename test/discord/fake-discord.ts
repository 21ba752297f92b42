// A small fake Discord on 127.0.0.1: the gateway over ws and the REST routes the bot uses, with
// enough state (channels, threads, messages, interaction tokens) to answer like Discord does, and
// as strict: an interaction is acknowledged once and within 3 s (40060, 10062 otherwise), its
// webhook works only after that, and every answer carries rate-limit headers (per-route buckets
// keyed by the major parameter, a global limit for bot-token requests; 429 past them).
// Every REST call is recorded; a test can make any route fail (403, 429, 500) on demand.
// Sharding as Discord does it: /gateway/bot recommends a shard count, each IDENTIFY names its
// [shard_id, num_shards], a session gets the guilds with (guild_id >> 22) % num_shards == shard_id
// (DMs go to shard 0) and is refused (4011) past 2,500 of them, and an event goes only to the
// session of the shard that owns its guild: with that shard down, it is lost, never replayed to
// the next session (a new IDENTIFY starts with a clean slate, as a killed process's successor does).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { PATIENCE_MS } from '../helpers/patience.ts';

export interface Call {
  method: string;
  /** Decoded path without the /api/vN prefix, e.g. /webhooks/1/tok/messages/@original. */
  path: string;
  query: URLSearchParams;
  auth?: string;
  /** JSON body, or payload_json of a multipart body. */
  body: any;
  files: { field: string; name: string; type: string; size: number; text: string }[];
  status: number;
  /** What the fake answered (a message object for message routes). */
  response?: any;
  /** The headers it answered with (rate limits on every answer). */
  headers?: Record<string, string>;
  /** When its request arrived, before the body was read (ms since the epoch). */
  at: number;
}

export interface Failure {
  method?: string;
  path: RegExp;
  status: 403 | 429 | 500;
  /** A 429's Retry-After in seconds (default 0.05). */
  retryAfter?: number;
  /** How many matching calls fail before the route works again (default 1). */
  times?: number;
  code?: number;
}

export type ApiChannel = { id: string; type: number; name?: string; guild_id?: string; parent_id?: string; [k: string]: unknown };
export type ApiMessage = { id: string; channel_id: string; [k: string]: any };

export interface FakeOptions {
  botId: string;
  guildId: string;
  channels: ApiChannel[];
  /** More servers the bot is in, with their channels (the main one's are `channels`). */
  guilds?: { id: string; channels: ApiChannel[] }[];
  /** What /gateway/bot recommends: the shard count, and how many shards may identify at once. */
  gateway?: { shards: number; maxConcurrency?: number };
  /** Roles of the guild besides @everyone (the bot's managed role, say). */
  roles?: Record<string, unknown>[];
  /** Discord's window to acknowledge an interaction. */
  ackWindowMs?: number;
  /** Requests per window per route bucket, and for all bot-token requests together. */
  limits?: { route: number; global: number; windowMs: number };
}

/** Discord's route bucket: ids generalized, the major parameter (channel, guild, webhook) kept apart. */
function bucketOf(method: string, path: string): { route: string; major: string } {
  if (/^\/interactions\/\d+\/[^/]+\/callback$/.test(path)) return { route: 'POST /interactions/:id/:token/callback', major: path.split('/')[2]! };
  const major = /^\/webhooks\/(\d+\/[^/]+)/.exec(path)?.[1] ?? /^\/(?:channels|guilds)\/(\d+)/.exec(path)?.[1] ?? 'global';
  return { route: `${method} ${path.replace(/\d{17,20}/g, ':id').replace(/\/webhooks\/:id\/[^/]+/, '/webhooks/:id/:token')}`, major };
}

export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>;

let counter = 0n;
/** Snowflake-shaped, increasing ids (discord.js reads timestamps out of them). */
export const snowflake = () => String(1_300_000_000_000_000_000n + ++counter);

/** Discord's rule for which shard receives a guild's events. */
export const shardOf = (guildId: string, shards: number) => Number((BigInt(guildId) >> 22n) % BigInt(shards));

/** Discord refuses a session that would hold more guilds than this (close 4011, sharding required). */
export const GUILDS_PER_SESSION = 2500;

export async function startFakeDiscord(opts: FakeOptions) {
  const calls: Call[] = [];
  const failures: (Failure & { left: number })[] = [];
  const guildIds = [opts.guildId, ...(opts.guilds ?? []).map((g) => g.id)];
  const channels = new Map<string, ApiChannel>([
    ...opts.channels.map((c): [string, ApiChannel] => [c.id, { guild_id: opts.guildId, ...c }]),
    ...(opts.guilds ?? []).flatMap((g) => g.channels.map((c): [string, ApiChannel] => [c.id, { guild_id: g.id, ...c }])),
  ]);
  const messages = new Map<string, ApiMessage>();
  const interactions = new Map<string, { id: string; channel_id: string; message_id?: string; original?: string; at: number; acked: boolean; answer?: any }>();
  const ackWindowMs = opts.ackWindowMs ?? 3000;
  const limits = opts.limits ?? { route: 50, global: 50, windowMs: 1000 };
  const windows = new Map<string, { count: number; resetAt: number }>();
  /** Counts a request against a window; the headers say what is left, `retryAfter` when nothing is. */
  function count(key: string, limit: number): { remaining: number; resetAfter: number; retryAfter?: number } {
    const now = Date.now();
    let w = windows.get(key);
    if (!w || now >= w.resetAt) windows.set(key, (w = { count: 0, resetAt: now + limits.windowMs }));
    const resetAfter = (w.resetAt - now) / 1000;
    if (w.count >= limit) return { remaining: 0, resetAfter, retryAfter: resetAfter };
    w.count++;
    return { remaining: limit - w.count, resetAfter };
  }
  const files = new Map<string, { body: Buffer; type: string }>();
  const listeners = new Set<() => void>();
  const sockets = new Set<WebSocket>();
  /** The intents of each IDENTIFY, as the bot asked for them. */
  const identified: number[] = [];
  /** The [shard_id, num_shards] of each IDENTIFY ([0, 1] when it named none). */
  const shardsIdentified: [number, number][] = [];
  /** Sessions that identified, by socket: which shard each is. */
  const sessions = new Map<WebSocket, [number, number]>();
  /** Interactions no session was there to receive (their shard down): lost, as on Discord. */
  const lost: string[] = [];
  let seq = 0;

  const port = () => (server.address() as AddressInfo).port;
  const base = () => `http://127.0.0.1:${port()}`;
  const botUser = { id: opts.botId, username: 'ComfyOOM', discriminator: '0', bot: true, avatar: null, global_name: null };

  function storeMessage(channelId: string, body: any, extra: Partial<ApiMessage> = {}): ApiMessage {
    const id = extra.id ?? snowflake();
    const m: ApiMessage = {
      id,
      channel_id: channelId,
      guild_id: channels.get(channelId)?.guild_id ?? opts.guildId,
      type: body?.message_reference ? 19 : 0,
      content: body?.content ?? '',
      embeds: body?.embeds ?? [],
      components: body?.components ?? [],
      attachments: [],
      author: botUser,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      pinned: false,
      flags: body?.flags ?? 0,
      ...(body?.message_reference ? { message_reference: { ...body.message_reference, channel_id: channelId } } : {}),
      ...extra,
    };
    messages.set(id, m);
    return m;
  }

  function editMessage(id: string, body: any): ApiMessage | undefined {
    const m = messages.get(id);
    if (!m) return undefined;
    for (const k of ['content', 'embeds', 'components', 'flags'] as const) if (body?.[k] !== undefined) m[k] = body[k];
    return m;
  }

  function newThread(parentId: string, name: string, id = snowflake()): ApiChannel {
    const thread: ApiChannel = {
      id,
      type: 11,
      guild_id: channels.get(parentId)?.guild_id ?? opts.guildId,
      parent_id: parentId,
      name,
      owner_id: opts.botId,
      flags: 0,
      rate_limit_per_user: 0,
      message_count: 0,
      member_count: 1,
      thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date().toISOString(), locked: false },
    };
    channels.set(id, thread);
    return thread;
  }

  async function readBody(req: http.IncomingMessage): Promise<{ body: any; files: Call['files'] }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const ct = req.headers['content-type'] ?? '';
    if (!raw.length) return { body: undefined, files: [] };
    if (ct.includes('json')) return { body: JSON.parse(raw.toString()), files: [] };
    if (ct.includes('multipart/form-data')) {
      const form = await new Response(raw, { headers: { 'content-type': ct } }).formData();
      const out: Call['files'] = [];
      let body: any;
      for (const [field, value] of form.entries()) {
        if (typeof value === 'string') {
          if (field === 'payload_json') body = JSON.parse(value);
        } else out.push({ field, name: value.name, type: value.type, size: value.size, text: await value.text() });
      }
      return { body, files: out };
    }
    return { body: raw.toString(), files: [] };
  }

  function route(method: string, path: string, body: any): { status: number; json?: unknown; raw?: { body: Buffer; type: string } } {
    const ok = (json: unknown) => ({ status: 200, json });
    const notFound = (code: number) => ({ status: 404, json: { message: 'Unknown', code } });
    let m: RegExpExecArray | null;

    if (path === '/gateway/bot') {
      const { shards = 1, maxConcurrency = 1 } = opts.gateway ?? {};
      return ok({ url: `ws://127.0.0.1:${port()}`, shards, session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: maxConcurrency } });
    }
    if (method === 'GET' && path === '/applications/@me') return ok({ id: opts.botId, name: 'ComfyOOM', bot: botUser, flags: 0 });
    if (method === 'PUT' && (m = /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/.exec(path))) {
      return ok((body as any[]).map((c) => ({ ...c, id: snowflake(), application_id: m![1], ...(m![2] ? { guild_id: m![2] } : {}), version: '1' })));
    }
    if (method === 'GET' && (m = /^\/files\/(.+)$/.exec(path))) {
      const f = files.get(m[1]!);
      return f ? { status: 200, raw: f } : notFound(0);
    }

    if ((m = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path))) {
      const it = interactions.get(m[2]!);
      if (!it) return notFound(10062);
      if (it.acked) return { status: 400, json: { message: 'Interaction has already been acknowledged.', code: 40060 } };
      if (Date.now() - it.at > ackWindowMs) return notFound(10062);
      it.acked = true;
      // 4 reply, 7 update: the user sees an answer at once; 5 and 6 defer it.
      if (body.type === 4 || body.type === 7) it.answer = body.data ?? {};
      const data = body?.data;
      // 4 reply, 5 deferred reply: the reply becomes the interaction's original message.
      if (body.type === 4 || body.type === 5) it.original = storeMessage(it.channel_id, data ?? {}).id;
      // 7 update: edits the message the component is on (and that message is the original from now on).
      if (body.type === 7 && it.message_id) editMessage(it.message_id, data);
      if ((body.type === 6 || body.type === 7) && it.message_id) it.original = it.message_id;
      return { status: 204 };
    }

    if ((m = /^\/webhooks\/(\d+)\/([^/]+)(?:\/messages\/([^/]+))?$/.exec(path))) {
      const it = interactions.get(m[2]!);
      // An interaction's webhook exists once the interaction is acknowledged.
      if (!it?.acked) return notFound(10015);
      const target = m[3] === '@original' ? it.original : m[3];
      if (method === 'POST' || method === 'PATCH') it.answer = body ?? {};
      if (!m[3] && method === 'POST') return ok(storeMessage(it.channel_id, body, { webhook_id: opts.botId, application_id: opts.botId }));
      if (!target) return notFound(10008);
      if (method === 'PATCH') return editMessage(target, body) ? ok(messages.get(target)) : notFound(10008);
      if (method === 'GET') return messages.has(target) ? ok(messages.get(target)) : notFound(10008);
      if (method === 'DELETE') return messages.delete(target) ? { status: 204 } : notFound(10008);
    }

    if (method === 'POST' && (m = /^\/channels\/(\d+)\/messages\/(\d+)\/threads$/.exec(path))) {
      if (!channels.has(m[1]!) || !messages.has(m[2]!)) return notFound(10008);
      // Discord gives a thread started from a message the message's id.
      return ok(newThread(m[1]!, body?.name ?? 'thread', m[2]!));
    }
    if (method === 'POST' && (m = /^\/channels\/(\d+)\/threads$/.exec(path))) {
      return channels.has(m[1]!) ? ok(newThread(m[1]!, body?.name ?? 'thread')) : notFound(10003);
    }
    if ((m = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path))) {
      if (method === 'GET') return messages.has(m[2]!) ? ok(messages.get(m[2]!)) : notFound(10008);
      if (method === 'PATCH') return editMessage(m[2]!, body) ? ok(messages.get(m[2]!)) : notFound(10008);
    }
    if (method === 'POST' && (m = /^\/channels\/(\d+)\/typing$/.exec(path))) {
      return channels.has(m[1]!) ? { status: 204 } : notFound(10003);
    }
    if (method === 'POST' && (m = /^\/channels\/(\d+)\/messages$/.exec(path))) {
      return channels.has(m[1]!) ? ok(storeMessage(m[1]!, body)) : notFound(10003);
    }
    // A user's DM channel with the bot, made on first use and the same after.
    if (method === 'POST' && path === '/users/@me/channels') {
      const recipient = String(body?.recipient_id);
      const existing = [...channels.values()].find((c) => c.type === 1 && (c['recipients'] as { id: string }[] | undefined)?.[0]?.id === recipient);
      if (existing) return ok(existing);
      const dm: ApiChannel = { id: snowflake(), type: 1, recipients: [{ id: recipient, username: `user${recipient.slice(-4)}`, discriminator: '0', avatar: null, global_name: null }] };
      channels.set(dm.id, dm);
      return ok(dm);
    }
    if (method === 'PUT' && /^\/channels\/\d+\/messages\/\d+\/reactions\/[^/]+\/@me$/.test(path)) return { status: 204 };
    if (method === 'GET' && (m = /^\/guilds\/(\d+)$/.exec(path))) {
      return guildIds.includes(m[1]!) ? ok(guildObject(m[1]!)) : notFound(10004);
    }
    if (method === 'GET' && (m = /^\/channels\/(\d+)$/.exec(path))) {
      return channels.has(m[1]!) ? ok(channels.get(m[1]!)) : notFound(10003);
    }
    if (method === 'PATCH' && (m = /^\/channels\/(\d+)$/.exec(path))) {
      const c = channels.get(m[1]!);
      if (!c) return notFound(10003);
      if (body?.applied_tags) c['applied_tags'] = body.applied_tags;
      if (body?.archived !== undefined) c['thread_metadata'] = { ...(c['thread_metadata'] as object), archived: body.archived };
      return ok(c);
    }
    return notFound(0);
  }

  function failureFor(method: string, path: string) {
    const f = failures.find((x) => x.left > 0 && (!x.method || x.method === method) && x.path.test(path));
    if (f) f.left--;
    return f;
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    const path = decodeURIComponent(url.pathname).replace(/^\/api\/v\d+/, '');
    const method = req.method!;
    const at = Date.now();
    const { body, files: uploaded } = await readBody(req);
    const call: Call = { method, path, query: url.searchParams, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}), body, files: uploaded, status: 0, at };
    const send = (status: number, payload?: unknown, extra: Record<string, string> = {}) => {
      const headers = { ...limitHeaders, ...extra };
      call.headers = headers;
      call.status = status;
      if (payload !== undefined && !Buffer.isBuffer(payload)) call.response = payload;
      calls.push(call);
      for (const l of listeners) l();
      if (payload === undefined) {
        res.writeHead(status, headers);
        res.end();
      } else if (Buffer.isBuffer(payload)) {
        res.writeHead(status, headers);
        res.end(payload);
      } else {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      }
    };

    const bucket = bucketOf(method, path);
    const perRoute = count(`${bucket.route}|${bucket.major}`, limits.route);
    const limitHeaders = {
      'x-ratelimit-limit': String(limits.route),
      'x-ratelimit-remaining': String(perRoute.remaining),
      'x-ratelimit-reset': String((Date.now() / 1000 + perRoute.resetAfter).toFixed(3)),
      'x-ratelimit-reset-after': perRoute.resetAfter.toFixed(3),
      'x-ratelimit-bucket': Buffer.from(bucket.route).toString('base64url').slice(0, 24),
    };
    const limited = (retryAfter: number, global: boolean) =>
      send(429, { message: 'You are being rate limited.', retry_after: retryAfter, global }, { ...limitHeaders, 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-scope': global ? 'global' : 'user', ...(global ? { 'x-ratelimit-global': 'true' } : {}) });
    // Interaction callbacks and webhooks carry no bot token and are not under the global limit.
    const overall = call.auth?.startsWith('Bot ') ? count('global', limits.global) : undefined;
    if (overall?.retryAfter !== undefined) return limited(overall.retryAfter, true);
    if (perRoute.retryAfter !== undefined) return limited(perRoute.retryAfter, false);

    const failure = failureFor(method, path);
    if (failure?.status === 429) {
      const after = String(failure.retryAfter ?? 0.05);
      return send(
        429,
        { message: 'You are being rate limited.', retry_after: Number(after), global: false },
        { 'retry-after': after, 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': after, 'x-ratelimit-bucket': 'fake-bucket', 'x-ratelimit-scope': 'user' },
      );
    }
    if (failure?.status === 403) return send(403, { message: 'Missing Permissions', code: failure.code ?? 50013 });
    if (failure?.status === 500) return send(500, { message: '500: Internal Server Error', code: 0 });

    const out = route(method, path, body);
    if (out.raw) return send(out.status, out.raw.body, { 'content-type': out.raw.type });
    return send(out.status, out.json);
  });

  const dispatchTo = (ws: WebSocket, t: string, d: unknown) => ws.send(JSON.stringify({ op: 0, t, s: ++seq, d }));
  const guildObject = (id: string) => ({
    id,
    name: id === opts.guildId ? 'ComfyUI' : `server ${id}`,
    preferred_locale: 'en-US',
    roles: [{ id, name: '@everyone', permissions: '0', position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 }, ...(id === opts.guildId ? (opts.roles ?? []) : [])],
  });
  const guildCreate = (id: string) => {
    const inGuild = [...channels.values()].filter((c) => c.guild_id === id);
    return {
      ...guildObject(id),
      unavailable: false,
      channels: inGuild.filter((c) => c.type !== 11 && c.type !== 12),
      // Like Discord, active threads come with the guild, so a restarted bot knows them.
      threads: inGuild.filter((c) => c.type === 11 || c.type === 12),
      members: [],
    };
  };
  /** Whether a session receives this guild's events; events outside guilds (DMs) go to shard 0. */
  const owns = ([id, count]: [number, number], guildId: string | undefined) => (guildId ? shardOf(guildId, count) === id : id === 0);

  new WebSocketServer({ server }).on('connection', (ws) => {
    sockets.add(ws);
    ws.on('close', () => {
      sockets.delete(ws);
      sessions.delete(ws);
    });
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 45_000 } }));
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString());
      if (msg.op === 1) ws.send(JSON.stringify({ op: 11 }));
      if (msg.op === 2) {
        identified.push(msg.d.intents);
        const shard: [number, number] = Array.isArray(msg.d.shard) ? msg.d.shard : [0, 1];
        shardsIdentified.push(shard);
        if (!(shard[1] >= 1 && shard[0] >= 0 && shard[0] < shard[1])) return ws.close(4010, 'Invalid shard.');
        const held = guildIds.filter((g) => owns(shard, g));
        if (held.length > GUILDS_PER_SESSION) return ws.close(4011, 'Sharding required.');
        sessions.set(ws, shard);
        dispatchTo(ws, 'READY', {
          v: 10,
          session_id: `fake-session-${shard[0]}-${shardsIdentified.length}`,
          resume_gateway_url: `ws://127.0.0.1:${port()}`,
          user: botUser,
          application: { id: opts.botId, flags: 0 },
          guilds: held.map((id) => ({ id, unavailable: true })),
          shard,
        });
        for (const id of held) dispatchTo(ws, 'GUILD_CREATE', guildCreate(id));
      }
    });
  });

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));

  /** Sends an event to the session of the shard that owns its guild; false when no such session is connected. */
  const dispatch = (t: string, d: unknown): boolean => {
    const guildId = (d as { guild_id?: string } | null)?.guild_id;
    let sent = false;
    for (const [ws, shard] of sessions) {
      if (!owns(shard, guildId) || ws.readyState !== ws.OPEN) continue;
      dispatchTo(ws, t, d);
      sent = true;
    }
    return sent;
  };

  return {
    api: `${base()}/api`,
    calls,
    identified,
    shardsIdentified,
    lost,
    channels,
    messages,
    /** Makes matching REST calls fail with this status, `times` times. */
    fail(f: Failure) {
      failures.push({ ...f, left: f.times ?? 1 });
    },
    /** Serves bytes at a URL on this server, as Discord's CDN serves attachments. */
    serveFile(name: string, body: Buffer | string, type = 'text/plain; charset=utf-8') {
      files.set(name, { body: Buffer.isBuffer(body) ? body : Buffer.from(body), type });
      return `${base()}/files/${name}`;
    },
    /** Posts a user message: stored (so it can be fetched) and sent as MESSAGE_CREATE. */
    post(message: Partial<ApiMessage> & { channel_id: string; author: unknown }) {
      const stored = storeMessage(message.channel_id, {}, message as ApiMessage);
      dispatch('MESSAGE_CREATE', stored);
      return stored;
    },
    /** A thread or forum post someone opened: known to the fake, and sent as THREAD_CREATE. */
    openThread(thread: ApiChannel) {
      channels.set(thread.id, thread);
      dispatch('THREAD_CREATE', { ...thread, newly_created: true });
    },
    /** A user edits their message: stored, and sent as MESSAGE_UPDATE with the whole new message. */
    edit(id: string, content: string) {
      const m = messages.get(id)!;
      m.content = content;
      m.edited_timestamp = new Date().toISOString();
      dispatch('MESSAGE_UPDATE', m);
      return m;
    },
    /** A user deletes their message: gone, and MESSAGE_DELETE sent (ids only, as Discord does). */
    remove(id: string) {
      const m = messages.get(id)!;
      messages.delete(id);
      dispatch('MESSAGE_DELETE', { id, channel_id: m.channel_id, ...(m.guild_id ? { guild_id: m.guild_id } : {}) });
    },
    /** Sends an interaction, remembering its token so callbacks and webhooks find their channel. */
    interact(payload: { id: string; token: string; channel: { id: string }; message?: { id: string } }): boolean {
      // A re-delivery (the same interaction again) keeps the first one's clock and acknowledgement.
      if (!interactions.has(payload.token)) interactions.set(payload.token, { id: payload.id, channel_id: payload.channel.id, ...(payload.message ? { message_id: payload.message.id } : {}), at: Date.now(), acked: false });
      const delivered = dispatch('INTERACTION_CREATE', payload);
      if (!delivered) lost.push(payload.token);
      return delivered;
    },
    /** Whether an interaction was acknowledged, and the last answer the user saw to it (more than "thinking…"), if any. */
    interaction(token: string): { acked: boolean; answer?: { content?: string; embeds?: { title?: string; description?: string }[] } } {
      const it = interactions.get(token);
      return { acked: it?.acked ?? false, ...(it?.answer ? { answer: it.answer } : {}) };
    },
    dispatch,
    /** Resolves with the first call (from index `from` on) that matches. */
    waitFor(pred: (c: Call) => boolean, { from = 0, timeoutMs = PATIENCE_MS } = {}): Promise<Call> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = calls.slice(from).find(pred);
          if (!found) return false;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching REST call within ${timeoutMs} ms; calls so far:\n${calls.map((c) => `  ${c.status} ${c.method} ${c.path}`).join('\n')}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    async close() {
      for (const ws of sockets) ws.terminate();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
