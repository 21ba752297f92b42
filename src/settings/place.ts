// What a Discord server's or Slack workspace's admins set for the bot there, over the bot's own
// defaults (its environment). Pure: what is stored, what holds, and what a change makes of it.
import { z } from 'zod';
import { LANGS, type Lang } from '../i18n/messages.ts';

/** Channel lists are short in practice; the caps keep one place from growing a row without end. */
const MAX_CHANNELS = 100;
const id = z.string().min(1).max(40);

/** A place's own choices as stored; a missing key takes the bot's default, null turns a default off. */
export const StoredSettings = z
  .object({
    helpers: id.nullable().optional(),
    watch: z.array(id).max(MAX_CHANNELS).optional(),
    digest: id.nullable().optional(),
    language: z.enum(LANGS).nullable().optional(),
    optOut: z.array(id).max(MAX_CHANNELS).optional(),
  })
  .strict();
export type StoredSettings = z.infer<typeof StoredSettings>;
export type SettingKey = keyof StoredSettings;
export const SETTING_KEYS: readonly SettingKey[] = ['helpers', 'watch', 'digest', 'language', 'optOut'];

/** The bot's defaults on one platform, from its environment. */
export interface Defaults {
  /** Discord: a role; Slack: a user group. Pinged once when a case runs out of steps. */
  helpers?: string;
  /** Channels where an OOM posted gets a quiet offer of help (and a Discord forum's new posts a how-to). */
  watch?: readonly string[];
  /** Where the weekly digest goes. */
  digest?: string;
  /** When neither the user's words nor their locale tell. */
  language?: Lang;
}

/** What holds in one place. */
export interface PlaceSettings {
  helpers?: string;
  watch: readonly string[];
  digest?: string;
  language?: Lang;
  /** Channels where the bot starts nothing: no offers, no new cases, no answers to mentions. */
  optOut: readonly string[];
  /** The keys this place's admins set; the others are the bot's defaults. */
  own: readonly SettingKey[];
}

/** A stored row that no longer parses (hand-edited, or from a newer version) counts as unset, not as a crash. */
export function readStored(json: string | undefined): StoredSettings {
  if (!json) return {};
  try {
    const r = StoredSettings.safeParse(JSON.parse(json));
    return r.success ? r.data : {};
  } catch {
    return {};
  }
}

export function effective(stored: StoredSettings, d: Defaults = {}): PlaceSettings {
  const pick = <T>(key: SettingKey, own: T | null | undefined, dflt: T | undefined) => (key in stored ? (own ?? undefined) : dflt);
  const helpers = pick('helpers', stored.helpers, d.helpers);
  const digest = pick('digest', stored.digest, d.digest);
  const language = pick('language', stored.language, d.language);
  return {
    ...(helpers ? { helpers } : {}),
    watch: stored.watch ?? d.watch ?? [],
    ...(digest ? { digest } : {}),
    ...(language ? { language } : {}),
    optOut: stored.optOut ?? [],
    own: SETTING_KEYS.filter((k) => k in stored),
  };
}

export type Change =
  | { kind: 'set'; key: 'helpers' | 'digest'; value: string | null }
  | { kind: 'set'; key: 'language'; value: Lang | null }
  | { kind: 'add' | 'remove'; key: 'watch' | 'optOut'; channel: string }
  /** Back to the bot's defaults: one key, or all. */
  | { kind: 'reset'; key?: SettingKey };

/**
 * The stored settings after a change. A channel is watched or opted out, never both: adding it to
 * one list takes it off the other. Lists start from what holds, so adding to the default watch
 * list keeps its channels.
 */
export function applyChange(stored: StoredSettings, change: Change, d: Defaults = {}): StoredSettings {
  if (change.kind === 'reset') {
    if (!change.key) return {};
    const { [change.key]: _gone, ...rest } = stored;
    return rest;
  }
  if (change.kind === 'set') return { ...stored, [change.key]: change.value };
  const now = effective(stored, d);
  const other = change.key === 'watch' ? 'optOut' : 'watch';
  const list = now[change.key].filter((c) => c !== change.channel);
  if (change.kind === 'remove') return { ...stored, [change.key]: list };
  const next: StoredSettings = { ...stored, [change.key]: [...list, change.channel].slice(-MAX_CHANNELS) };
  if (now[other].includes(change.channel)) next[other] = now[other].filter((c) => c !== change.channel);
  return next;
}

/** A channel, or a thread in it: `parent` is the thread's channel. */
export const isWatched = (s: PlaceSettings, channel: string | undefined, parent?: string | null) => inList(s.watch, channel, parent);
export const isOptedOut = (s: PlaceSettings, channel: string | undefined, parent?: string | null) => inList(s.optOut, channel, parent);
const inList = (list: readonly string[], channel: string | undefined, parent?: string | null) => (!!channel && list.includes(channel)) || (!!parent && list.includes(parent));
