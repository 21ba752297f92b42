// What an admin reads back about a place's settings, in either language: each setting, what it
// does, and whether it is this place's own choice or the bot's default.
import { heading, type Lang } from '../i18n/messages.ts';
import type { PlaceSettings, SettingKey } from './place.ts';

/** How the platform writes a mention of a channel and of a helper role or group. */
export interface Mentions {
  channel(id: string): string;
  helpers(id: string): string;
}

export const SETTINGS_TEXT = {
  title: { en: 'ComfyOOM settings here', zh: 'ComfyOOM 在这里的设置' },
  saved: { en: 'Saved.', zh: '已保存。' },
  helpers: { en: 'Helpers, pinged once when a case runs out of steps', zh: '人工帮手（问题的步骤用完时提醒一次）' },
  watch: { en: 'Watched channels, where an out-of-memory error posted gets an offer of help', zh: '关注的频道（有人贴出内存不足错误时主动提供帮助）' },
  digest: { en: 'Weekly digest for moderators', zh: '每周统计摘要（给管理员）' },
  language: { en: 'Language when a user’s words and settings do not tell', zh: '无法从用户的文字和设置判断时使用的语言' },
  optOut: { en: 'Channels where I start nothing (cases already open there go on)', zh: '我不主动参与的频道（那里已开始的问题照常继续）' },
  none: { en: 'none', zh: '无' },
  off: { en: 'off', zh: '关闭' },
  auto: { en: 'automatic (English unless the user writes Chinese)', zh: '自动（用户写中文时用中文，否则用英文）' },
  default: { en: '(default)', zh: '（默认）' },
  langName: { en: { en: 'English', zh: 'Chinese (Simplified)' }, zh: { en: '英文', zh: '简体中文' } },
} as const;

const T = SETTINGS_TEXT;

/** The settings as an admin reads them, one line each; `saved` when they just changed. */
export function settingsText(s: PlaceSettings, lang: Lang, m: Mentions, o: { saved?: boolean } = {}): string {
  const mark = (key: SettingKey) => (s.own.includes(key) ? '' : `${lang === 'zh' ? '' : ' '}${T.default[lang]}`);
  const channels = (list: readonly string[]) => (list.length ? list.map(m.channel).join(', ') : T.none[lang]);
  const colon = lang === 'zh' ? '：' : ': ';
  const line = (key: SettingKey, value: string) => `• ${T[key][lang]}${colon}${value}${mark(key)}`;
  return [
    ...(o.saved ? [T.saved[lang]] : []),
    heading(T.title[lang], lang),
    line('helpers', s.helpers ? m.helpers(s.helpers) : T.none[lang]),
    line('watch', channels(s.watch)),
    line('digest', s.digest ? m.channel(s.digest) : T.off[lang]),
    line('language', s.language ? T.langName[lang][s.language] : T.auto[lang]),
    line('optOut', channels(s.optOut)),
  ].join('\n');
}
