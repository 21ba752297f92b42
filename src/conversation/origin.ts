// Who a message comes from and where, and the language the bot answers them in.
import { localeLang, wordsLang, writesEnglish, type Lang } from '../i18n/messages.ts';
import { scriptLang } from '../i18n/words.ts';
import type { Settings } from '../settings/settings.ts';

export interface Origin {
  platform: string;
  server?: string;
  channel?: string;
  user: string;
  /** The platform's locale for the user, e.g. "zh-CN". */
  locale?: string;
  /** Moderators may answer any case's buttons. */
  moderator?: boolean;
  /** A language the user chose explicitly; otherwise the paste, the locale, then the place's default decide. */
  lang?: Lang;
  /** The place's default language (its settings; null when it has none), filled in by the engine. */
  placeLang?: Lang | null;
  /**
   * The conversation a case from here runs in, when it is known before anything is posted (a
   * Discord thread, forum post or DM, a Slack thread): it holds one open case at most.
   */
  thread?: string;
  /** What a case would be opened from (a message, a command invocation): it opens one at most. */
  source?: string;
  /** A direct conversation with the bot: every message there is addressed to it. */
  direct?: boolean;
}

/**
 * The script of the user's own words first (not the log's), then their platform locale when it is
 * a language the bot speaks, then English sentences of theirs, then `fallback` (the place's
 * default), then the language the log's own messages are in, then English.
 */
export function langFor(locale: string | undefined, text: string, fallback?: Lang): Lang {
  return wordsLang(text) ?? localeLang(locale) ?? (writesEnglish(text) ? 'en' : undefined) ?? fallback ?? scriptLang(text) ?? 'en';
}
export const langOf = (origin: Origin, text: string): Lang => origin.lang ?? langFor(origin.locale, text, origin.placeLang ?? undefined);

/** The origin with its place's default language, for the words and locale that do not tell; looked up once a request. */
export async function placed(settings: Settings, origin: Origin): Promise<Origin> {
  if (origin.placeLang !== undefined) return origin;
  return { ...origin, placeLang: (await settings.of(origin.platform, origin.server)).language ?? null };
}
