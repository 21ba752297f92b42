// What an admin reads back about a place's settings, in each language: each setting, what it
// does, and whether it is this place's own choice or the bot's default.
import { FULL_WIDTH, heading, labelled, type Lang } from '../i18n/messages.ts';
import type { PlaceSettings, SettingKey } from './place.ts';

/** How the platform writes a mention of a channel and of a helper role or group. */
export interface Mentions {
  channel(id: string): string;
  helpers(id: string): string;
}

export const SETTINGS_TEXT = {
  title: { en: 'ComfyOOM settings here', zh: 'ComfyOOM 在这里的设置', ja: 'ここでの ComfyOOM の設定', ko: '이곳의 ComfyOOM 설정', 'zh-Hant': 'ComfyOOM 在這裡的設定' },
  saved: { en: 'Saved.', zh: '已保存。', ja: '保存しました。', ko: '저장했어요.', 'zh-Hant': '已儲存。' },
  helpers: { en: 'Helpers, pinged once when a case runs out of steps', zh: '人工帮手（问题的步骤用完时提醒一次）', ja: 'ヘルパー（ケースのステップが尽きたときに一度だけ通知）', ko: '도우미 (케이스의 단계가 다 떨어지면 한 번 호출)', 'zh-Hant': '人工幫手（問題的步驟用完時提醒一次）' },
  watch: { en: 'Watched channels, where an out-of-memory error posted gets an offer of help', zh: '关注的频道（有人贴出内存不足错误时主动提供帮助）', ja: '監視チャンネル（メモリ不足エラーが投稿されたら手助けを申し出る）', ko: '감시 채널 (메모리 부족 오류가 올라오면 도움을 제안)', 'zh-Hant': '關注的頻道（有人貼出記憶體不足錯誤時主動提供幫助）' },
  digest: { en: 'Weekly digest for moderators', zh: '每周统计摘要（给管理员）', ja: 'モデレーター向けの週次まとめ', ko: '운영진용 주간 요약', 'zh-Hant': '每週統計摘要（給管理員）' },
  language: { en: 'Language when a user’s words and settings do not tell', zh: '无法从用户的文字和设置判断时使用的语言', ja: 'ユーザーの文章や設定から判断できないときの言語', ko: '사용자의 글과 설정으로 알 수 없을 때 쓸 언어', 'zh-Hant': '無法從使用者的文字和設定判斷時使用的語言' },
  optOut: { en: 'Channels where I start nothing (cases already open there go on)', zh: '我不主动参与的频道（那里已开始的问题照常继续）', ja: '自分からは何も始めないチャンネル（すでに開いているケースはそのまま続行）', ko: '제가 먼저 시작하지 않는 채널 (이미 열린 케이스는 계속 진행)', 'zh-Hant': '我不主動參與的頻道（那裡已開始的問題照常繼續）' },
  none: { en: 'none', zh: '无', ja: 'なし', ko: '없음', 'zh-Hant': '無' },
  off: { en: 'off', zh: '关闭', ja: 'オフ', ko: '꺼짐', 'zh-Hant': '關閉' },
  auto: {
    en: 'automatic (the language the user writes in, else their Discord or Slack language, else English)',
    zh: '自动（按用户所写的语言，其次按其 Discord 或 Slack 的语言，否则用英文）',
    'zh-Hant': '自動（依使用者所寫的語言，其次依其 Discord 或 Slack 的語言，否則用英文）',
    ja: '自動（ユーザーが書いた言語、次に Discord または Slack の言語、どちらもなければ英語）',
    ko: '자동(사용자가 쓴 언어, 그다음 Discord 또는 Slack 언어, 둘 다 없으면 영어)',
  },
  default: { en: '(default)', zh: '（默认）', ja: '（既定）', ko: '(기본값)', 'zh-Hant': '（預設）' },
  /** Each language's name, as each language says it. */
  langName: {
    en: { en: 'English', zh: '英文', 'zh-Hant': '英文', ja: '英語', ko: '영어' },
    zh: { en: 'Chinese (Simplified)', zh: '简体中文', 'zh-Hant': '簡體中文', ja: '中国語（簡体字）', ko: '중국어(간체)' },
    'zh-Hant': { en: 'Chinese (Traditional)', zh: '繁体中文', 'zh-Hant': '繁體中文', ja: '中国語（繁体字）', ko: '중국어(번체)' },
    ja: { en: 'Japanese', zh: '日语', 'zh-Hant': '日文', ja: '日本語', ko: '일본어' },
    ko: { en: 'Korean', zh: '韩语', 'zh-Hant': '韓文', ja: '韓国語', ko: '한국어' },
  },
} as const;

const T = SETTINGS_TEXT;

/** The settings as an admin reads them, one line each; `saved` when they just changed. */
export function settingsText(s: PlaceSettings, lang: Lang, m: Mentions, o: { saved?: boolean } = {}): string {
  const mark = (key: SettingKey) => (s.own.includes(key) ? '' : `${FULL_WIDTH.has(lang) ? '' : ' '}${T.default[lang]}`);
  const channels = (list: readonly string[]) => (list.length ? list.map(m.channel).join(', ') : T.none[lang]);
  const line = (key: SettingKey, value: string) => `• ${labelled(T[key][lang], value, lang)}${mark(key)}`;
  return [
    ...(o.saved ? [T.saved[lang]] : []),
    heading(T.title[lang], lang),
    line('helpers', s.helpers ? m.helpers(s.helpers) : T.none[lang]),
    line('watch', channels(s.watch)),
    line('digest', s.digest ? m.channel(s.digest) : T.off[lang]),
    line('language', s.language ? T.langName[s.language][lang] : T.auto[lang]),
    line('optOut', channels(s.optOut)),
  ].join('\n');
}
