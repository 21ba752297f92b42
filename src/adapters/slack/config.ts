// `/comfyoom config ...` as Slack sends it: channels as <#C…|name>, user groups as <!subteam^S…|@name>;
// the words in English or in Chinese, Simplified or Traditional.
import { LANGS } from '../../i18n/messages.ts';
import type { Change, SettingKey } from '../../settings/place.ts';

/** What the words ask: the settings shown, a change, or nothing understood (usage is shown). */
export type ConfigRequest = { show: true } | { change: Change } | undefined;

const CHANNEL = /^<#([CG][A-Z0-9]+)(?:\|[^>]*)?>$|^([CG][A-Z0-9]{2,})$/;
const GROUP = /^<!subteam\^(S[A-Z0-9]+)(?:\|[^>]*)?>$|^(S[A-Z0-9]{2,})$/;
const OFF = /^(none|off|无|关闭|無|關閉)$/i;
const KEYS: Record<string, SettingKey> = { helpers: 'helpers', watch: 'watch', 'opt-out': 'optOut', digest: 'digest', language: 'language', 帮手: 'helpers', 关注: 'watch', 静默: 'optOut', 周报: 'digest', 语言: 'language', 幫手: 'helpers', 關注: 'watch', 靜默: 'optOut', 週報: 'digest', 語言: 'language' };

const idOf = (word: string | undefined, pattern: RegExp) => {
  const m = word ? pattern.exec(word) : null;
  return m ? (m[1] ?? m[2]) : undefined;
};

/** The words after `config` (Slack's raw command text, its mentions still encoded). */
export function parseConfig(args: string): ConfigRequest {
  const [what, ...rest] = args.trim().split(/\s+/).filter(Boolean);
  if (!what || /^(show|查看)$/i.test(what)) return rest.length ? undefined : { show: true };
  const key = KEYS[what.toLowerCase()];
  if (what.toLowerCase() === 'reset' || what === '恢复默认') {
    const which = rest[0] ? KEYS[rest[0].toLowerCase()] : undefined;
    if (rest.length > 1 || (rest[0] && !which)) return undefined;
    return { change: { kind: 'reset', ...(which ? { key: which } : {}) } };
  }
  if (!key || rest.length === 0) return undefined;
  if (key === 'watch' || key === 'optOut') {
    const [verb, where, ...more] = rest;
    const kind = /^(add|添加)$/i.test(verb ?? '') ? 'add' : /^(remove|移除)$/i.test(verb ?? '') ? 'remove' : undefined;
    const channel = idOf(where, CHANNEL);
    return kind && channel && !more.length ? { change: { kind, key, channel } } : undefined;
  }
  if (rest.length > 1) return undefined;
  const value = rest[0]!;
  if (key === 'language') {
    const lang = LANGS.find((l) => l.toLowerCase() === value.toLowerCase());
    return lang ? { change: { kind: 'set', key, value: lang } } : /^(auto|自动|自動)$/i.test(value) ? { change: { kind: 'set', key, value: null } } : undefined;
  }
  if (OFF.test(value)) return { change: { kind: 'set', key, value: null } };
  const id = idOf(value, key === 'helpers' ? GROUP : CHANNEL);
  return id ? { change: { kind: 'set', key, value: id } } : undefined;
}
