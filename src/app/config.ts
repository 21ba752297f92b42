// Configuration from the environment, validated at start so a typo fails with a clear message
// instead of a silent misbehaviour. `.env.example` lists every variable.
import { z } from 'zod';
import { parseAdaptive, type AdaptiveSetting } from '../learn/index.ts';
import { LANGS, type Lang } from '../i18n/messages.ts';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../ops/log-settings.ts';
import type { DiscordConfig } from '../adapters/discord/bot.ts';
import type { SlackConfig } from '../adapters/slack/bot.ts';

const ids = z
  .string()
  .optional()
  .transform((s) => (s ? s.split(/[\s,]+/).filter(Boolean) : []));

const flag = (name: string, dflt: boolean) =>
  z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined || s === '') return dflt;
      if (/^(1|true|yes|on)$/i.test(s)) return true;
      if (/^(0|false|no|off)$/i.test(s)) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false` });
      return z.NEVER;
    });

/** A positive number, whole if `whole`; `within` bounds what makes sense ([min, max, unit]). */
const positive = (name: string, dflt: number, whole = false, within?: [number, number, string]) =>
  z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined || s === '') return dflt;
      const n = Number(s);
      if (!Number.isFinite(n) || n <= 0 || (whole && !Number.isInteger(n))) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a positive ${whole ? 'whole number' : 'number'}` });
        return z.NEVER;
      }
      if (within && (n < within[0] || n > within[1])) {
        ctx.addIssue({ code: 'custom', message: `${name} must be between ${within[0]} and ${within[1]} ${within[2]} (it is ${s})` });
        return z.NEVER;
      }
      return n;
    });

/** Socket Mode unless asked for HTTP, or unless only HTTP's signing secret is given. */
const slackMode = (env: { SLACK_MODE?: 'socket' | 'http' | undefined; SLACK_APP_TOKEN?: string | undefined; SLACK_SIGNING_SECRET?: string | undefined }) =>
  env.SLACK_MODE ?? (!env.SLACK_APP_TOKEN && env.SLACK_SIGNING_SECRET ? 'http' : 'socket');

const Settings = z.object({
  COMFYOOM_DB: z.string().default('data/comfyoom.db'),
  /** A PostgreSQL server instead of the SQLite file, for bots on several machines. */
  COMFYOOM_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/i, 'COMFYOOM_DATABASE_URL must be a postgres:// URL (postgres://user:password@host:5432/database), or unset for the SQLite file')
    .optional(),
  // A case abandoned within a blink, or after months, is nobody's intent: 3.6 seconds (for tests) to 30 days.
  COMFYOOM_IDLE_HOURS: positive('COMFYOOM_IDLE_HOURS', 24, false, [0.001, 720, 'hours']),
  /** Days a case is kept; older ones are deleted, their anonymous counts kept for stats. */
  COMFYOOM_RETENTION_DAYS: positive('COMFYOOM_RETENTION_DAYS', 90, true, [1, 36_500, 'days']),
  /** Pastes a user may submit per minute before a polite refusal. */
  COMFYOOM_RATE_PER_MINUTE: positive('COMFYOOM_RATE_PER_MINUTE', 6, false, [1, 10_000, 'pastes a minute']),
  /** Whether step orders are learned from recorded outcomes: off, suggest, on; unset is suggest until an entry has enough confirmed fixes, then on. */
  COMFYOOM_ADAPTIVE: z
    .string()
    .optional()
    .transform((s, ctx) => parseAdaptive(s) ?? (ctx.addIssue({ code: 'custom', message: 'COMFYOOM_ADAPTIVE must be off, suggest or on (unset: suggest until enough confirmed fixes, then on)' }), z.NEVER)),

  /** The language of every server and workspace whose admins chose none, when a user's words and locale do not tell; unset: English. */
  COMFYOOM_LANGUAGE: z.enum(LANGS, { error: `COMFYOOM_LANGUAGE must be one of ${LANGS.join(', ')} (unset: the language each user writes in, else English)` }).optional(),

  /** The operations port (/healthz, /metrics); off when unset. */
  COMFYOOM_HTTP_PORT: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined) return undefined;
      const n = Number(s);
      if (Number.isInteger(n) && n >= 1 && n <= 65535) return n;
      ctx.addIssue({ code: 'custom', message: 'COMFYOOM_HTTP_PORT must be a port number (1-65535)' });
      return z.NEVER;
    }),
  /** Where the operations port listens: this machine only unless told (a container says 0.0.0.0). */
  COMFYOOM_HTTP_HOST: z.string().default('127.0.0.1'),
  COMFYOOM_LOG_LEVEL: z.enum(LOG_LEVELS, { error: `COMFYOOM_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  /** Unset: readable on a terminal, JSON lines otherwise. */
  COMFYOOM_LOG_FORMAT: z.enum(LOG_FORMATS, { error: 'COMFYOOM_LOG_FORMAT must be json or pretty' }).optional(),

  /** Discord shards, each in a process of its own under one manager process: auto (Discord's recommendation) or a count; unset: one process, no sharding. */
  COMFYOOM_SHARDS: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (s === undefined) return undefined;
      if (/^auto$/i.test(s)) return 'auto' as const;
      const n = Number(s);
      if (Number.isInteger(n) && n >= 1) return n;
      ctx.addIssue({ code: 'custom', message: 'COMFYOOM_SHARDS must be auto or a whole number of shards (1 or more)' });
      return z.NEVER;
    }),

  DISCORD_TOKEN: z.string().min(50, 'DISCORD_TOKEN looks too short to be a bot token').optional(),
  DISCORD_GUILD_ID: z.string().regex(/^\d{17,20}$/, 'DISCORD_GUILD_ID must be a numeric server id').optional(),
  /** Channels where ComfyOOM offers help when someone posts an OOM traceback (off when empty). */
  DISCORD_WATCH_CHANNELS: ids,
  /** Off when the privileged Message Content intent is not enabled in the Developer Portal. */
  DISCORD_MESSAGE_CONTENT: flag('DISCORD_MESSAGE_CONTENT', true),
  /** A role pinged once when a case runs out of steps. */
  DISCORD_HELPER_ROLE: z.string().regex(/^\d{17,20}$/, 'DISCORD_HELPER_ROLE must be a numeric role id').optional(),
  /** The forum tag (name or id) a resolved forum post gets. */
  DISCORD_SOLVED_TAG: z.string().max(100).default('Solved'),
  /** A moderators' channel for the weekly digest (off when unset). */
  DISCORD_DIGEST_CHANNEL: z.string().regex(/^\d{17,20}$/, 'DISCORD_DIGEST_CHANNEL must be a numeric channel id').optional(),

  SLACK_BOT_TOKEN: z.string().startsWith('xoxb-', 'SLACK_BOT_TOKEN must start with xoxb-').optional(),
  SLACK_APP_TOKEN: z.string().startsWith('xapp-', 'SLACK_APP_TOKEN must start with xapp- (an app-level token with connections:write)').optional(),
  SLACK_SIGNING_SECRET: z.string().min(16, 'SLACK_SIGNING_SECRET looks too short').optional(),
  SLACK_MODE: z.enum(['socket', 'http']).optional(),
  /** Slack's Web API: https://slack-gov.com/api/ for a GovSlack workspace; unset, https://slack.com/api/. */
  SLACK_API_URL: z.url({ protocol: /^https?$/, error: 'SLACK_API_URL must be an http(s) URL such as https://slack-gov.com/api/' }).optional(),
  SLACK_PORT: positive('SLACK_PORT', 3000),
  /** Channels where ComfyOOM offers help when someone posts an OOM traceback (off when empty). */
  SLACK_WATCH_CHANNELS: ids,
  /** Slack user ids that may answer anyone's buttons. */
  SLACK_HELPERS: ids,
  /** Slack user ids that may see /comfyoom stats. */
  SLACK_ADMINS: ids,
  /** A user group pinged once when a case runs out of steps. */
  SLACK_HELPER_GROUP: z.string().regex(/^S[A-Z0-9]{2,}$/, 'SLACK_HELPER_GROUP must be a user group id (S…)').optional(),
  /** A moderators' conversation for the weekly digest (off when unset). */
  SLACK_DIGEST_CHANNEL: z.string().regex(/^[CG][A-Z0-9]{2,}$/, 'SLACK_DIGEST_CHANNEL must be a channel id (C… or G…)').optional(),
});

/** Every variable the configuration reads (what a deployment file may set). */
export const VARIABLES: readonly string[] = Object.keys(Settings.shape);

const Env = Settings.superRefine((env, ctx) => {
  if (env.COMFYOOM_SHARDS !== undefined && !env.DISCORD_TOKEN) ctx.addIssue({ code: 'custom', path: ['COMFYOOM_SHARDS'], message: 'COMFYOOM_SHARDS shards the Discord bot, which needs DISCORD_TOKEN' });
  if (!env.SLACK_BOT_TOKEN) return;
  const mode = slackMode(env);
  if (mode === 'http' && env.COMFYOOM_HTTP_PORT === env.SLACK_PORT) {
    ctx.addIssue({ code: 'custom', path: ['COMFYOOM_HTTP_PORT'], message: `COMFYOOM_HTTP_PORT must differ from SLACK_PORT (${env.SLACK_PORT}), where Slack's requests arrive` });
  }
  if (mode === 'socket' && !env.SLACK_APP_TOKEN) {
    ctx.addIssue({ code: 'custom', path: ['SLACK_APP_TOKEN'], message: 'Socket Mode (the default) needs SLACK_APP_TOKEN; for HTTP mode set SLACK_MODE=http and SLACK_SIGNING_SECRET' });
  }
  if (mode === 'http' && !env.SLACK_SIGNING_SECRET) ctx.addIssue({ code: 'custom', path: ['SLACK_SIGNING_SECRET'], message: 'HTTP mode needs SLACK_SIGNING_SECRET to verify requests' });
});

export interface Config {
  db: string;
  /** COMFYOOM_DATABASE_URL: the store is this PostgreSQL server instead of the file `db`. */
  databaseUrl?: string;
  idleMs: number;
  retentionDays: number;
  ratePerMinute: number;
  adaptive: AdaptiveSetting;
  /** COMFYOOM_LANGUAGE: the places' default language, until their admins choose one. */
  language?: Lang;
  log: { level: LogLevel; format?: LogFormat };
  /** The operations port; port 0 takes any free one (tests). */
  http?: { port: number; host: string };
  discord?: DiscordConfig & {
    /** Sharded: the gateway in shard processes under this one (see app/shards.ts); unset: in this process. */
    shards?: 'auto' | number;
  };
  slack?: SlackConfig;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`configuration problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables (KEY= in a .env file) mean "not set".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const r = Env.safeParse(cleaned);
  if (!r.success) throw new ConfigError(r.error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`));
  const e = r.data;
  return {
    db: e.COMFYOOM_DB,
    ...(e.COMFYOOM_DATABASE_URL ? { databaseUrl: e.COMFYOOM_DATABASE_URL } : {}),
    idleMs: e.COMFYOOM_IDLE_HOURS * 3_600_000,
    retentionDays: e.COMFYOOM_RETENTION_DAYS,
    ratePerMinute: e.COMFYOOM_RATE_PER_MINUTE,
    adaptive: e.COMFYOOM_ADAPTIVE,
    ...(e.COMFYOOM_LANGUAGE ? { language: e.COMFYOOM_LANGUAGE } : {}),
    log: { level: e.COMFYOOM_LOG_LEVEL, ...(e.COMFYOOM_LOG_FORMAT ? { format: e.COMFYOOM_LOG_FORMAT } : {}) },
    ...(e.COMFYOOM_HTTP_PORT !== undefined ? { http: { port: e.COMFYOOM_HTTP_PORT, host: e.COMFYOOM_HTTP_HOST } } : {}),
    ...(e.DISCORD_TOKEN
      ? {
          discord: {
            token: e.DISCORD_TOKEN,
            ...(e.DISCORD_GUILD_ID ? { guildId: e.DISCORD_GUILD_ID } : {}),
            watchChannels: e.DISCORD_WATCH_CHANNELS,
            messageContent: e.DISCORD_MESSAGE_CONTENT,
            ...(e.DISCORD_HELPER_ROLE ? { helperRole: e.DISCORD_HELPER_ROLE } : {}),
            solvedTag: e.DISCORD_SOLVED_TAG,
            ...(e.DISCORD_DIGEST_CHANNEL ? { digestChannel: e.DISCORD_DIGEST_CHANNEL } : {}),
            ...(e.COMFYOOM_SHARDS !== undefined ? { shards: e.COMFYOOM_SHARDS } : {}),
          },
        }
      : {}),
    ...(e.SLACK_BOT_TOKEN
      ? {
          slack: {
            botToken: e.SLACK_BOT_TOKEN,
            mode: slackMode(e),
            ...(e.SLACK_APP_TOKEN ? { appToken: e.SLACK_APP_TOKEN } : {}),
            ...(e.SLACK_SIGNING_SECRET ? { signingSecret: e.SLACK_SIGNING_SECRET } : {}),
            ...(e.SLACK_API_URL ? { apiUrl: e.SLACK_API_URL } : {}),
            port: e.SLACK_PORT,
            watchChannels: e.SLACK_WATCH_CHANNELS,
            helpers: e.SLACK_HELPERS,
            admins: e.SLACK_ADMINS,
            ...(e.SLACK_HELPER_GROUP ? { helperGroup: e.SLACK_HELPER_GROUP } : {}),
            ...(e.SLACK_DIGEST_CHANNEL ? { digestChannel: e.SLACK_DIGEST_CHANNEL } : {}),
          },
        }
      : {}),
  };
}
