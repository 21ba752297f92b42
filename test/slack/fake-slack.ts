// A small fake Slack on 127.0.0.1: the Web API methods the bot calls (form-encoded, like the real
// one), response_url posts, file downloads that need the bot token, file uploads, and a Socket
// Mode WebSocket. Every call is recorded; any method can be made to answer 429 (with Retry-After),
// 500 or a Slack error on demand, or to answer late. Like Slack, a trigger_id opens one view, and
// only within 3 s of the interaction that brought it (expired_trigger_id after that).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { PATIENCE_MS } from '../helpers/patience.ts';

export interface ApiCall {
  method: string;
  args: Record<string, any>;
  auth?: string;
  status: number;
  /** What the fake answered. */
  result?: any;
  at: number;
}

export type Failure = { status: 429; retryAfter: number } | { status: 500 } | { error: string };

export interface FakeOptions {
  botUserId: string;
  teamId: string;
  /** How long a trigger_id may be used for views.open. */
  triggerTtlMs?: number;
  /** users.info locales; users not listed have en-US. */
  locales?: Record<string, string>;
  /** Users whose users.info says they are the workspace's admins. */
  workspaceAdmins?: string[];
}

export type ThreadMessage = { ts: string; user?: string; bot_id?: string; text?: string; blocks?: unknown[]; files?: unknown[]; thread_ts?: string };

export type FakeSlack = Awaited<ReturnType<typeof startFakeSlack>>;

export async function startFakeSlack(opts: FakeOptions) {
  const calls: ApiCall[] = [];
  const responses: { path: string; body: any; at: number }[] = [];
  const downloads: { path: string; auth?: string }[] = [];
  const uploads: { path: string; bytes: number }[] = [];
  const failures: { method: string; failure: Failure; skip: number; left: number }[] = [];
  const files = new Map<string, { content: Buffer; type: string }>();
  const history = new Map<string, ThreadMessage>();
  const sockets = new Set<WebSocket>();
  const acks = new Map<string, (payload: unknown) => void>();
  const triggers = new Map<string, { at: number; used: boolean }>();
  const delays = new Map<string, number>();
  let triggerCount = 0;
  let ts = 0;
  const nextTs = () => `1700000000.${String(++ts).padStart(6, '0')}`;
  const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function parse(raw: string, type: string): Record<string, any> {
    if (!raw) return {};
    if (type.includes('json')) return JSON.parse(raw);
    const args: Record<string, any> = Object.fromEntries(new URLSearchParams(raw));
    // The WebClient sends structured arguments as JSON strings inside the form.
    for (const k of ['blocks', 'view', 'files', 'attachments']) if (typeof args[k] === 'string') args[k] = JSON.parse(args[k]);
    return args;
  }

  function answer(method: string, args: Record<string, any>): any {
    switch (method) {
      case 'auth.test':
        return { ok: true, user_id: opts.botUserId, bot_id: 'B0FAKEBOT', team_id: opts.teamId, user: 'comfyoom', team: 'Test' };
      case 'apps.connections.open':
        return { ok: true, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/socket` };
      case 'chat.postMessage': {
        const at = nextTs();
        history.set(`${args.channel}:${at}`, { ts: at, bot_id: 'B0FAKEBOT', text: args.text, blocks: args.blocks, ...(args.thread_ts ? { thread_ts: args.thread_ts } : {}) });
        return { ok: true, channel: args.channel, ts: at, message: { ts: at, text: args.text, blocks: args.blocks } };
      }
      case 'chat.update': {
        const m = history.get(`${args.channel}:${args.ts}`);
        if (m) Object.assign(m, { text: args.text, blocks: args.blocks });
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text };
      }
      case 'chat.getPermalink':
        return { ok: true, channel: args.channel, permalink: `https://fake.slack.test/archives/${args.channel}/p${String(args.message_ts).replace('.', '')}` };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: nextTs() };
      case 'views.open': {
        const trigger = triggers.get(args.trigger_id);
        if (!trigger) return { ok: false, error: 'invalid_trigger_id' };
        if (trigger.used) return { ok: false, error: 'exchanged_trigger_id' };
        if (Date.now() - trigger.at > (opts.triggerTtlMs ?? 3000)) return { ok: false, error: 'expired_trigger_id' };
        trigger.used = true;
        return { ok: true, view: { id: 'V0MODAL', hash: 'h1', ...args.view } };
      }
      case 'views.update':
        return { ok: true, view: { id: args.view_id, hash: 'h2', ...args.view } };
      case 'users.info':
        return { ok: true, user: { id: args.user, locale: opts.locales?.[args.user] ?? 'en-US', is_admin: opts.workspaceAdmins?.includes(args.user) ?? false, is_owner: false } };
      case 'conversations.replies': {
        // The thread's first message (if still there) and the replies under it, oldest first.
        const m = history.get(`${args.channel}:${args.ts}`);
        const replies = [...history.entries()].filter(([k, x]) => k.startsWith(`${args.channel}:`) && x.thread_ts === args.ts && x.ts !== args.ts).map(([, x]) => x);
        return { ok: true, messages: [...(m ? [m] : []), ...replies.sort((a, b) => Number(a.ts) - Number(b.ts))], has_more: false };
      }
      case 'conversations.history': {
        const m = history.get(`${args.channel}:${args.latest}`);
        return { ok: true, messages: m ? [m] : [], has_more: false };
      }
      case 'conversations.open':
        return { ok: true, channel: { id: `D${args.users}` } };
      case 'files.info':
        return { ok: true, file: { id: args.file, url_private_download: `${base()}/files/${args.file}` } };
      case 'files.getUploadURLExternal': {
        const id = `F${randomUUID().slice(0, 8).toUpperCase()}`;
        return { ok: true, upload_url: `${base()}/upload/${id}`, file_id: id };
      }
      case 'files.completeUploadExternal':
        return { ok: true, files: (args.files ?? []).map((f: { id: string }) => ({ id: f.id })) };
      default:
        return { ok: true };
    }
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const path = new URL(req.url!, 'http://x').pathname;
    const type = req.headers['content-type'] ?? '';
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };

    if (path.startsWith('/api/')) {
      const method = path.slice('/api/'.length);
      const args = parse(raw.toString('utf8'), type);
      const call: ApiCall = { method, args, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}), status: 200, at: Date.now() };
      calls.push(call);
      const late = delays.get(method);
      if (late) await new Promise((r) => setTimeout(r, late));
      const f = failures.find((x) => x.method === method && x.left > 0);
      if (f && f.skip > 0) f.skip--;
      else if (f) {
        f.left--;
        if ('error' in f.failure) {
          call.result = { ok: false, error: f.failure.error };
          return send(200, call.result);
        }
        call.status = f.failure.status;
        if (f.failure.status === 429) return send(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(f.failure.retryAfter) });
        return send(500, 'internal error', { 'content-type': 'text/plain' });
      }
      call.result = answer(method, args);
      return send(200, call.result);
    }
    if (path.startsWith('/response/')) {
      responses.push({ path, body: parse(raw.toString('utf8'), type), at: Date.now() });
      return send(200, 'ok', { 'content-type': 'text/plain' });
    }
    if (path.startsWith('/upload/')) {
      uploads.push({ path, bytes: raw.length });
      return send(200, 'OK', { 'content-type': 'text/plain' });
    }
    if (path.startsWith('/files/')) {
      downloads.push({ path, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}) });
      const file = files.get(decodeURIComponent(path.slice('/files/'.length)));
      // Like Slack: without the token, a sign-in page instead of the file.
      if (!req.headers.authorization?.startsWith('Bearer xoxb-')) return send(200, '<html>sign in</html>', { 'content-type': 'text/html' });
      if (!file) return send(404, 'not found', { 'content-type': 'text/plain' });
      res.writeHead(200, { 'content-type': file.type });
      return res.end(file.content);
    }
    send(404, { ok: false, error: 'unknown_path' });
  });

  const wss = new WebSocketServer({ server, path: '/socket' });
  wss.on('connection', (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as { envelope_id?: string; payload?: unknown };
      if (m.envelope_id) acks.get(m.envelope_id)?.(m.payload ?? {});
    });
    ws.send(JSON.stringify({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A0FAKE' }, debug_info: { host: 'fake' } }));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const fake = {
    calls,
    responses,
    downloads,
    uploads,
    get url() {
      return base();
    },
    get api() {
      return `${base()}/api/`;
    },
    responseUrl: () => `${base()}/response/${randomUUID()}`,
    /** A trigger_id, as Slack issues one with each interaction: its 3 s start now. */
    trigger(): string {
      const id = `trigger-${++triggerCount}-${randomUUID().slice(0, 8)}`;
      triggers.set(id, { at: Date.now(), used: false });
      return id;
    },
    /** Makes a method answer this much later (users.info on a slow day). */
    delay(method: string, ms: number) {
      delays.set(method, ms);
    },
    /** The next `times` calls of a method (after `skip` good ones) fail this way. */
    fail(method: string, failure: Failure, o: { times?: number; skip?: number } = {}) {
      failures.push({ method, failure, skip: o.skip ?? 0, left: o.times ?? 1 });
    },
    /** A file the bot can download from this fake with its token. */
    serveFile(name: string, content: string | Buffer, type = 'text/plain') {
      files.set(name, { content: Buffer.from(content), type });
      return `${base()}/files/${encodeURIComponent(name)}`;
    },
    /** A message already in a channel, for conversations.replies/history. */
    seed(channel: string, m: ThreadMessage) {
      history.set(`${channel}:${m.ts}`, m);
    },
    of: (method: string) => calls.filter((c) => c.method === method && c.status === 200 && c.result?.ok !== false),
    async waitFor(pred: (c: ApiCall) => boolean, what = 'a matching API call', timeoutMs = PATIENCE_MS): Promise<ApiCall> {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const hit = calls.find((c) => c.status === 200 && pred(c));
        if (hit) return hit;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; calls: ${calls.map((c) => `${c.method}(${c.status})`).join(', ')}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async waitForResponse(timeoutMs = PATIENCE_MS) {
      const end = Date.now() + timeoutMs;
      const before = responses.length;
      while (responses.length === before) {
        if (Date.now() > end) throw new Error('timed out waiting for a response_url post');
        await new Promise((r) => setTimeout(r, 10));
      }
      return responses.at(-1)!;
    },
    /** Sends a Socket Mode envelope and resolves with the app's ack payload. */
    envelope(type: 'slash_commands' | 'interactive' | 'events_api', payload: unknown, timeoutMs = PATIENCE_MS): Promise<unknown> {
      const id = randomUUID();
      const acked = new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ack for ${type} envelope`)), timeoutMs);
        acks.set(id, (p) => {
          clearTimeout(timer);
          acks.delete(id);
          resolve(p);
        });
      });
      if (!sockets.size) throw new Error('no Socket Mode connection');
      for (const ws of sockets) ws.send(JSON.stringify({ envelope_id: id, type, payload, accepts_response_payload: type !== 'events_api' }));
      return acked;
    },
    get connections() {
      return sockets.size;
    },
    reset() {
      calls.length = 0;
      responses.length = 0;
      downloads.length = 0;
      uploads.length = 0;
      failures.length = 0;
      delays.clear();
    },
    async close() {
      for (const ws of sockets) ws.close(1000);
      await new Promise((r) => setTimeout(r, 20));
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return fake;
}
