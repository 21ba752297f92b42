// Texts only the Discord adapter shows (thread fallback, modal, watch-mode offer, command
// descriptions), in both languages. Everything about a case itself comes from the engine.
import type { Lang } from '../../i18n/messages.ts';

type Text = { en: string; zh: string };

export const D = {
  noThread: { en: "I can't open a thread here, so I'll continue in this channel.", zh: '这里无法创建子区，我会在本频道继续。' },
  movedToDm: {
    en: "I'm not allowed to post in the channel where you asked (no Send Messages permission there), so your case continues here. Ask a moderator to let me post there.",
    zh: '我没有在你提问的频道发言的权限（缺少“发送消息”权限），所以在这里继续你的问题。可以请管理员给我那个频道的发言权限。',
  },
  // Discord caps modal titles and labels at 45 characters, placeholders at 100.
  modalTitle: { en: 'ComfyOOM: paste your error', zh: 'ComfyOOM：粘贴报错' },
  modalLabel: { en: 'Error or console log', zh: '报错或控制台日志' },
  modalPlaceholder: { en: 'The traceback, or the last 30–50 lines of the ComfyUI console', zh: '报错堆栈，或 ComfyUI 控制台最后 30–50 行' },
  onboard: {
    en: 'To find out why ComfyUI ran out of memory I need its log: copy the console output from ComfyUI\'s start through the error and its traceback, and paste it here as text or a .txt file (the Desktop app keeps it in its logs folder and its terminal panel). While ComfyUI runs, `http://127.0.0.1:8188/system_stats` (port 8000 on the Desktop app) tells your GPU and versions too. Or press the button and paste it there.',
    zh: '要查明 ComfyUI 为什么显存/内存不足，我需要它的日志：复制从 ComfyUI 启动开始一直到报错及其堆栈的控制台输出，以文字或 .txt 文件贴在这里（桌面版的日志在它的日志文件夹和终端面板里）。ComfyUI 运行时，`http://127.0.0.1:8188/system_stats`（桌面版为 8000 端口）还能告诉我你的显卡和版本。也可以点下面的按钮粘贴。',
  },
  startButton: { en: 'Start troubleshooting', zh: '开始排查' },
  messageGone: { en: 'I cannot read that message any more. Paste the log with /comfyoom instead.', zh: '我读取不到那条消息了。请改用 /comfyoom 粘贴日志。' },
  noTraceback: { en: 'This message has no traceback to diagnose.', zh: '这条消息里没有可以诊断的报错。' },
  statsAll: { en: '/comfyoom-stats all: True', zh: '/comfyoom-统计 全部: True' },
  badSince: { en: '"since" takes a number and w, d, h or m, for example 2w or 30d.', zh: '"since" 需要数字加 w、d、h 或 m，例如 2w 或 30d。' },
  unreadable: {
    en: 'I cannot read the message you replied to (this bot runs without the Message Content intent). Use the message menu: Apps → Diagnose with ComfyOOM.',
    zh: '我读取不到你回复的那条消息（本机器人未开启 Message Content 权限）。请使用消息菜单：应用 → 用 ComfyOOM 诊断。',
  },
  statsRefused: {
    en: "Stats are for this server's moderators (Manage Messages) and its helper role, in the server itself.",
    zh: '统计只对本服务器的管理员（“管理消息”权限）和助手身份组开放，并且要在服务器里使用。',
  },
  configRefused: {
    en: "ComfyOOM's settings for this server are changed by its admins (Manage Server), in the server itself.",
    zh: '本服务器的 ComfyOOM 设置只能由服务器管理员（“管理服务器”权限）在服务器里修改。',
  },
  failed: {
    en: 'Something went wrong while talking to Discord. Your case is saved: press "Show current step" (or mention me in the case thread) to go on.',
    zh: '与 Discord 通信时出错了。你的问题记录已保存：点“显示当前步骤”（或在问题子区里 @我）即可继续。',
  },
} satisfies Record<string, Text>;

/** Command names and descriptions, as Discord shows them in the command picker. */
export const COMMAND_TEXT = {
  diagnoseName: { en: 'comfyoom', zh: 'comfyoom' },
  diagnose: { en: 'Diagnose a ComfyUI out-of-memory error and fix it step by step', zh: '诊断 ComfyUI 内存不足错误，并一步步修复' },
  logName: { en: 'log', zh: '日志' },
  log: { en: 'The error or console log (leave empty to paste a long one)', zh: '报错或控制台日志（留空可粘贴长日志）' },
  fileName: { en: 'file', zh: '文件' },
  file: { en: 'A .txt or .log file with the console output', zh: '包含控制台输出的 .txt 或 .log 文件' },
  languageName: { en: 'language', zh: '语言' },
  language: { en: 'Answer in this language', zh: '回复语言' },
  english: { en: 'English', zh: '英文' },
  chinese: { en: 'Simplified Chinese', zh: '简体中文' },
  statsName: { en: 'comfyoom-stats', zh: 'comfyoom-统计' },
  stats: { en: "Which fixes work: this server's case statistics (moderators)", zh: '哪些修复有效：本服务器的问题统计（管理员）' },
  sinceName: { en: 'since', zh: '时间范围' },
  since: { en: 'Only cases newer than this, e.g. 30d, 12h', zh: '只统计这段时间内的问题，例如 30d、12h' },
  allName: { en: 'all', zh: '全部' },
  all: { en: 'Every entry, step and week, with kb ids, as a file (default: the top ones, one screen)', zh: '所有条目、步骤和每周数据，附 kb 编号，作为文件发送（默认只显示最多的，一屏）' },
  forgetName: { en: 'comfyoom-forget', zh: 'comfyoom-删除记录' },
  forget: { en: 'Delete your cases and answers from ComfyOOM (asks first)', zh: '从 ComfyOOM 删除你的问题记录和回答（会先确认）' },
  relabelName: { en: 'comfyoom-relabel', zh: 'comfyoom-更正诊断' },
  relabel: { en: 'Correct a case\'s diagnosis, for stats and learning (moderators)', zh: '更正某个问题的诊断，用于统计和学习（管理员）' },
  caseName: { en: 'case', zh: '问题编号' },
  caseOption: { en: 'The case id (shown in stats and the hand-over summary)', zh: '问题编号（见统计和交接小结）' },
  entryName: { en: 'entry', zh: '条目' },
  entryOption: { en: 'The kb entry it really was, e.g. ram-oom', zh: '它实际对应的 kb 条目，例如 ram-oom' },
  contextMenu: { en: 'Diagnose with ComfyOOM', zh: '用 ComfyOOM 诊断' },
  configName: { en: 'comfyoom-config', zh: 'comfyoom-设置' },
  config: { en: "ComfyOOM's settings for this server (admins)", zh: '本服务器的 ComfyOOM 设置（管理员）' },
  showName: { en: 'show', zh: '查看' },
  show: { en: 'Show the settings', zh: '查看当前设置' },
  helpersName: { en: 'helpers', zh: '帮手' },
  helpers: { en: 'The role pinged when a case runs out of steps; its members may answer any case (none: nobody)', zh: '问题的步骤用完时提醒的身份组，其成员可以回答任何问题（不选：无）' },
  roleName: { en: 'role', zh: '身份组' },
  role: { en: "The helpers' role", zh: '帮手的身份组' },
  watchName: { en: 'watch', zh: '关注' },
  watch: { en: 'Channels where an out-of-memory error posted gets an offer of help', zh: '有人贴出内存不足错误时主动提供帮助的频道' },
  optOutName: { en: 'opt-out', zh: '静默' },
  optOut: { en: 'Channels where ComfyOOM starts nothing', zh: 'ComfyOOM 不主动参与的频道' },
  addName: { en: 'add', zh: '添加' },
  add: { en: 'Add a channel', zh: '添加一个频道' },
  removeName: { en: 'remove', zh: '移除' },
  remove: { en: 'Remove a channel', zh: '移除一个频道' },
  channelName: { en: 'channel', zh: '频道' },
  channel: { en: 'The channel (a forum covers its posts)', zh: '频道（论坛频道包括其中的帖子）' },
  digestName: { en: 'digest', zh: '周报' },
  digest: { en: 'Where the weekly digest for moderators goes (none: off)', zh: '每周统计摘要发到哪个频道（不选：关闭）' },
  digestChannel: { en: 'The moderators\' channel', zh: '管理员频道' },
  defaultLanguage: { en: 'The language when a user\'s words and Discord language do not tell', zh: '无法从用户的文字和 Discord 语言判断时使用的语言' },
  auto: { en: 'Automatic', zh: '自动' },
  resetName: { en: 'reset', zh: '恢复默认' },
  reset: { en: 'Back to the bot\'s defaults: one setting, or all', zh: '恢复机器人的默认设置：某一项或全部' },
  settingName: { en: 'setting', zh: '设置项' },
  setting: { en: 'The setting (none: all of them)', zh: '设置项（不选：全部）' },
} satisfies Record<string, Text>;

export const say = (text: Text, lang: Lang, vars: Record<string, string> = {}) =>
  Object.entries(vars).reduce((s, [k, v]) => s.replaceAll(`{${k}}`, v), text[lang]);
