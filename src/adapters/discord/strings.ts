// Texts only the Discord adapter shows (thread fallback, modal, watch-mode offer, command
// descriptions), in both languages. Everything about a case itself comes from the engine.
import type { Lang } from '../../i18n/messages.ts';

type Text = { en: string; zh: string };

export const D = {
  noThread: { en: "I can't open a thread here, so I'll continue in this channel.", zh: '这里无法创建子区，我会在本频道继续。' },
  cannotPost: {
    en: "I can't post in this channel (missing permission: {perms}). Ask a moderator to allow it, or use /comfyoom in another channel.",
    zh: '我无法在本频道发言（缺少权限：{perms}）。请让管理员开启，或在其他频道使用 /comfyoom。',
  },
  // Discord caps modal titles and labels at 45 characters, placeholders at 100.
  modalTitle: { en: 'ComfyOOM: paste your error', zh: 'ComfyOOM：粘贴报错' },
  modalLabel: { en: 'Error or console log', zh: '报错或控制台日志' },
  modalPlaceholder: { en: 'The traceback, or the last 30–50 lines of the ComfyUI console', zh: '报错堆栈，或 ComfyUI 控制台最后 30–50 行' },
  watchOffer: {
    en: 'That looks like a ComfyUI out-of-memory error. Want me to walk you through fixing it?',
    zh: '这看起来是 ComfyUI 的内存不足错误。需要我一步步帮你解决吗？',
  },
  watchButton: { en: 'Diagnose it', zh: '帮我诊断' },
  offerNotYours: { en: 'This offer is for the person who posted the error (or a moderator).', zh: '这个按钮是给发出报错的人（或管理员）用的。' },
  messageGone: { en: 'I cannot read that message any more. Paste the log with /comfyoom instead.', zh: '我读取不到那条消息了。请改用 /comfyoom 粘贴日志。' },
  noTraceback: { en: 'This message has no traceback to diagnose.', zh: '这条消息里没有可以诊断的报错。' },
  badSince: { en: '"since" takes a number and d, h or m, for example 30d.', zh: '"since" 需要数字加 d、h 或 m，例如 30d。' },
  failed: {
    en: 'Something went wrong while talking to Discord. Your case is saved; try again in a moment.',
    zh: '与 Discord 通信时出错了。你的问题记录已保存，请稍后再试。',
  },
} satisfies Record<string, Text>;

/** Command names and descriptions, as Discord shows them in the command picker. */
export const COMMAND_TEXT = {
  diagnose: { en: 'Diagnose a ComfyUI out-of-memory error and fix it step by step', zh: '诊断 ComfyUI 内存不足错误，并一步步修复' },
  log: { en: 'The error or console log (leave empty to paste a long one)', zh: '报错或控制台日志（留空可粘贴长日志）' },
  file: { en: 'A .txt or .log file with the console output', zh: '包含控制台输出的 .txt 或 .log 文件' },
  language: { en: 'Answer in this language', zh: '回复语言' },
  stats: { en: 'Which fixes work: case statistics (moderators)', zh: '哪些修复有效：问题统计（管理员）' },
  since: { en: 'Only cases newer than this, e.g. 30d, 12h', zh: '只统计这段时间内的问题，例如 30d、12h' },
  contextMenu: { en: 'Diagnose with ComfyOOM', zh: '用 ComfyOOM 诊断' },
} satisfies Record<string, Text>;

export const say = (text: Text, lang: Lang, vars: Record<string, string> = {}) =>
  Object.entries(vars).reduce((s, [k, v]) => s.replaceAll(`{${k}}`, v), text[lang]);
