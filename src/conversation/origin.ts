// Who a message comes from and where, and the language the bot answers them in.
import { langFor, type Lang } from '../i18n/messages.ts';
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

export { langFor };
/** A user's language: the one they chose, else as their message, locale and place tell (langFor). */
export const langOf = (origin: Origin, text: string): Lang => origin.lang ?? langFor(origin.locale, text, origin.placeLang ?? undefined);

/** The origin with its place's default language, for the words and locale that do not tell; looked up once a request. */
export async function placed(settings: Settings, origin: Origin): Promise<Origin> {
  if (origin.placeLang !== undefined) return origin;
  return { ...origin, placeLang: (await settings.of(origin.platform, origin.server)).language ?? null };
}
