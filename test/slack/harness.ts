// Shared set-up for the Slack end-to-end tests: a fake Slack, a real SQLite file, the real engine
// and kb, and the real Bolt app started by startSlack. Plus builders for what Slack would send
// (signed HTTP requests or Socket Mode payloads).
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@slack/bolt';
import { startSlack, type SlackAdapter, type StartSlackOptions } from '../../src/adapters/slack/bot.ts';
import { Engine } from '../../src/conversation/engine.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb, type Db } from '../../src/store/db.ts';
import { sqliteSql, type Sql } from '../../src/store/sql.ts';
import type { PasteReader } from '../../src/ingest/paste-links.ts';
import { kb } from '../helpers/kb.ts';
import type { Ocr } from '../../src/ingest/ocr.ts';
import type { ApiCall, FakeSlack } from './fake-slack.ts';
import { PATIENCE_MS } from '../helpers/patience.ts';

export const SECRET = 'test-signing-secret-0123456789abcdef';
export const BOT_TOKEN = 'xoxb-test-bot-token';
export const APP_TOKEN = 'xapp-test-app-token';
export const TEAM = 'T0TEAM';
export const CHANNEL = 'C0HELP';
export const BOT_USER = 'U0BOT';
export const ALICE = 'U0ALICE';
export const BOB = 'U0BOB';
export const HELPER = 'U0HELPER';
export const ADMIN = 'U0ADMIN';
export const LI = 'U0LI'; // Slack locale zh-CN

export const fakeOptions = { botUserId: BOT_USER, teamId: TEAM, locales: { [LI]: 'zh-CN' } };

/** A logger that keeps what it is told, so tests can check a failure was logged (and stay quiet). */
export function memoryLogger() {
  const lines: { level: string; text: string }[] = [];
  const log = (level: string) => (...msg: unknown[]) => void lines.push({ level, text: msg.map(String).join(' ') });
  let level = 'debug';
  const logger: Logger = {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    setLevel: (l) => void (level = l),
    getLevel: () => level as ReturnType<Logger['getLevel']>,
    setName: () => undefined,
  };
  return { logger, lines, errors: () => lines.filter((l) => l.level === 'error').map((l) => l.text) };
}

export interface Bot {
  adapter: SlackAdapter;
  db: Db;
  store: CaseStore;
  engine: Engine;
  path: string;
  log: ReturnType<typeof memoryLogger>;
  /** HTTP mode: where Slack would send requests. */
  url: string;
  stop(): Promise<void>;
}

export const tempDb = () => join(mkdtempSync(join(tmpdir(), 'comfyoom-slack-')), 'cases.db');

export async function startBot(fake: FakeSlack, o: { path?: string; mode?: 'http' | 'socket'; retryConfig?: StartSlackOptions['retryConfig']; ocr?: Ocr; sql?: Sql; readPaste?: PasteReader } = {}): Promise<Bot> {
  const path = o.path ?? tempDb();
  const db = openDb(path);
  // The store's database: the SQLite file at `path` unless another is given.
  const store = new CaseStore(o.sql ?? sqliteSql(db));
  const engine = new Engine({ kb, store, ...(o.ocr ? { ocr: o.ocr } : {}), ...(o.readPaste ? { readPaste: o.readPaste } : {}) });
  const log = memoryLogger();
  const mode = o.mode ?? 'http';
  const adapter = await startSlack({
    config: {
      botToken: BOT_TOKEN,
      mode,
      ...(mode === 'socket' ? { appToken: APP_TOKEN } : { signingSecret: SECRET }),
      port: 0,
      helpers: [HELPER],
      admins: [ADMIN],
    },
    engine,
    slackApiUrl: fake.api,
    // No retries unless a test asks: a failing fake must fail fast, not for half an hour.
    retryConfig: o.retryConfig ?? { retries: 0 },
    host: '127.0.0.1',
    logger: log.logger,
  });
  return {
    adapter,
    db,
    store,
    engine,
    path,
    log,
    url: `http://127.0.0.1:${adapter.port ?? 0}/slack/events`,
    stop: async () => {
      await adapter.stop();
      db.close();
    },
  };
}

export function sign(raw: string, secret = SECRET, ts = Math.floor(Date.now() / 1000)) {
  return {
    'x-slack-request-timestamp': String(ts),
    'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${ts}:${raw}`).digest('hex')}`,
  };
}

/** POSTs like Slack does: the raw body signed with the app's signing secret. */
export async function post(bot: Bot, raw: string, type: 'form' | 'json', o: { secret?: string; ts?: number } = {}) {
  const res = await fetch(bot.url, {
    method: 'POST',
    headers: { 'content-type': type === 'form' ? 'application/x-www-form-urlencoded' : 'application/json', ...sign(raw, o.secret, o.ts) },
    body: raw,
  });
  return { status: res.status, body: await res.text() };
}

// --- what Slack sends ---------------------------------------------------------------------------

export function slashPayload(fake: FakeSlack, user: string, text: string) {
  return {
    token: 'verification-token',
    team_id: TEAM,
    team_domain: 'test',
    channel_id: CHANNEL,
    channel_name: 'help',
    user_id: user,
    user_name: user.toLowerCase(),
    command: '/comfyoom',
    text,
    api_app_id: 'A0FAKE',
    response_url: fake.responseUrl(),
    trigger_id: fake.trigger(),
  };
}

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
export const interactive = (payload: unknown) => form({ payload: JSON.stringify(payload) });

/** The click on a button of a message the bot posted, as Slack reports it. */
export function clickPayload(fake: FakeSlack, posted: ApiCall, label: string, user: string) {
  const blocks = posted.args.blocks as any[];
  const actions = blocks.find((b) => b.type === 'actions');
  const button = actions?.elements.find((e: any) => e.text.text === label);
  if (!button) throw new Error(`no button "${label}" in ${JSON.stringify(blocks.map((b) => b.type))}`);
  const ts = posted.result.ts as string;
  return {
    type: 'block_actions',
    team: { id: TEAM, domain: 'test' },
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: TEAM },
    api_app_id: 'A0FAKE',
    token: 'verification-token',
    container: { type: 'message', message_ts: ts, channel_id: posted.args.channel, is_ephemeral: false, thread_ts: posted.args.thread_ts },
    trigger_id: fake.trigger(),
    channel: { id: posted.args.channel, name: 'help' },
    message: { type: 'message', user: BOT_USER, bot_id: 'B0FAKEBOT', ts, text: posted.args.text, blocks, ...(posted.args.thread_ts ? { thread_ts: posted.args.thread_ts } : {}) },
    response_url: fake.responseUrl(),
    actions: [{ type: 'button', action_id: button.action_id, block_id: actions.block_id, value: button.value, text: button.text, action_ts: String(Date.now() / 1000) }],
  };
}

export function viewSubmission(view: { callback_id: string; private_metadata: string }, user: string, value: string) {
  return {
    type: 'view_submission',
    team: { id: TEAM, domain: 'test' },
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: TEAM },
    api_app_id: 'A0FAKE',
    token: 'verification-token',
    trigger_id: `trigger-view-${user}`,
    view: {
      id: 'V0MODAL',
      type: 'modal',
      callback_id: view.callback_id,
      private_metadata: view.private_metadata,
      state: { values: { log: { text: { type: 'plain_text_input', value } } } },
      hash: 'h',
    },
  };
}

export function shortcutPayload(fake: FakeSlack, user: string, message: { ts: string; user?: string; text: string; files?: unknown[] }) {
  return {
    type: 'message_action',
    callback_id: 'diagnose_message',
    trigger_id: fake.trigger(),
    message_ts: message.ts,
    response_url: fake.responseUrl(),
    message: { type: 'message', ...message },
    user: { id: user, name: user.toLowerCase() },
    channel: { id: CHANNEL, name: 'help' },
    team: { id: TEAM, domain: 'test' },
    token: 'verification-token',
    action_ts: String(Date.now() / 1000),
  };
}

let eventId = 0;

/** An Events API callback; `event.text` must already be Slack-encoded (see slackText). */
export function eventCallback(event: Record<string, unknown>) {
  return {
    token: 'verification-token',
    team_id: TEAM,
    api_app_id: 'A0FAKE',
    type: 'event_callback',
    event_id: `Ev${++eventId}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: TEAM, user_id: BOT_USER, is_bot: true, is_enterprise_install: false }],
    event: { channel: CHANNEL, event_ts: event['ts'], ...event },
  };
}

/** Text as Slack puts it on the wire: &, < and > as entities. */
export const slackText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

let msgTs = 0;
export const newTs = () => `1600000000.${String(++msgTs).padStart(6, '0')}`;

/** Polls until `cond` holds (the bot works after it acks, so its effects arrive a moment later). */
export async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = PATIENCE_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits until the work a request started has settled: no new API call for `quietMs`. */
export async function settle(fake: FakeSlack, quietMs = 150): Promise<void> {
  let n = -1;
  while (n !== fake.calls.length) {
    n = fake.calls.length;
    await new Promise((r) => setTimeout(r, quietMs));
  }
}

// --- reading what the bot did -------------------------------------------------------------------

export const blockText = (call: ApiCall) => JSON.stringify(call.args.blocks ?? []);
export const hasButtons = (call: ApiCall) => (call.args.blocks ?? []).some((b: any) => b.type === 'actions');
export const headerOf = (call: ApiCall) => (call.args.blocks ?? []).find((b: any) => b.type === 'header')?.text.text as string | undefined;
