// Texts only the Slack adapter shows (its modal, its refusals); the conversation's own texts come
// from src/conversation. Both languages, picked with langFor(locale, text) like everything else.
export const S = {
  modalTitle: { en: 'ComfyOOM', zh: 'ComfyOOM' },
  modalLabel: { en: 'Paste the error or the end of the console log', zh: '粘贴报错或控制台日志的最后部分' },
  modalHint: {
    en: 'The last 30–50 lines are enough. For a longer log, attach the .txt/.log file in a channel and mention me.',
    zh: '最后 30–50 行就够了。日志更长时，请在频道里上传 .txt/.log 文件并 @ 我。',
  },
  modalSubmit: { en: 'Diagnose', zh: '诊断' },
  reading: { en: 'Reading your file…', zh: '正在读取你的文件…' },
  itsThread: { en: 'Go to its thread', zh: '前往它的讨论串' },
  modalCancel: { en: 'Cancel', zh: '取消' },
  modalEmpty: { en: 'Paste a log first.', zh: '请先粘贴日志。' },
  cannotPost: {
    en: 'I can’t post in this channel. Invite me with `/invite @ComfyOOM`, or use /comfyoom in a channel I am in.',
    zh: '我无法在这个频道发消息。请用 `/invite @ComfyOOM` 邀请我，或在我所在的频道里使用 /comfyoom。',
  },
  cannotPostDm: {
    en: 'I can’t post in this conversation (a direct message between other people). Send me the log in a direct message to ComfyOOM, or use /comfyoom in a channel I am in.',
    zh: '我无法在这个对话（其他人之间的私信）里发消息。请直接私信 ComfyOOM 发送日志，或在我所在的频道里使用 /comfyoom。',
  },
  modalFailed: {
    en: 'I couldn’t open the form for your log. Paste it right after the command (`/comfyoom <error>`), or attach the .txt/.log file in a channel and mention me.',
    zh: '无法打开粘贴日志的表单。请直接在命令后粘贴（`/comfyoom <报错>`），或在频道里上传 .txt/.log 文件并 @ 我。',
  },
  noTraceback: {
    en: 'No traceback here to diagnose. Paste the error (or attach a .txt/.log file or a screenshot) and mention me, or use /comfyoom.',
    zh: '这里没有可诊断的报错。请粘贴报错（或上传 .txt/.log 文件或截图）并 @ 我，或者使用 /comfyoom。',
  },
  statsRefused: {
    en: 'Sorry, the statistics are only for ComfyOOM admins. Ask one of them if you need numbers.',
    zh: '抱歉，统计数据只对 ComfyOOM 管理员开放。如需数据，请联系管理员。',
  },
  statsUsage: {
    en: 'Usage: `/comfyoom stats` or `/comfyoom stats 30d` (also 12h, 90m); add `all` for every entry, step and week, with kb ids.',
    zh: '用法：`/comfyoom stats` 或 `/comfyoom stats 30d`（也可以是 12h、90m）；加上 `all`（或 `全部`）显示所有条目、步骤和每周数据，附 kb 编号。',
  },
  statsAll: { en: '/comfyoom stats all', zh: '/comfyoom stats 全部' },
  relabelUsage: {
    en: 'Usage: `/comfyoom relabel CASE ENTRY`, e.g. `/comfyoom relabel a1b2c3 ram-oom` (the newest misdiagnosed cases are listed in `/comfyoom stats`).',
    zh: '用法：`/comfyoom relabel 问题编号 条目`，例如 `/comfyoom relabel a1b2c3 ram-oom`（最近被指出误诊的问题列在 `/comfyoom stats` 里）。',
  },
  usage: {
    en: '`/comfyoom <error text>` diagnoses a pasted error; `/comfyoom` alone opens a form for a longer log. You can also mention me under a message with a traceback or a log file, use the “Diagnose with ComfyOOM” message shortcut, or send me the log in a direct message. `/comfyoom forget` deletes your cases and answers.',
    zh: '`/comfyoom <报错文字>` 诊断粘贴的报错；只输入 `/comfyoom` 会打开一个表单，用来粘贴较长的日志。也可以在含有报错或日志文件的消息下 @ 我、使用消息快捷方式“Diagnose with ComfyOOM”，或直接私信我日志。`/comfyoom forget` 删除你的问题记录和回答。',
  },
  configRefused: {
    en: "ComfyOOM's settings for this workspace are changed by its admins (workspace admins and owners, and the bot's SLACK_ADMINS).",
    zh: '本工作区的 ComfyOOM 设置只能由管理员（工作区管理员和所有者，以及机器人的 SLACK_ADMINS）修改。',
  },
  configUsage: {
    en: 'Usage: `/comfyoom config` shows the settings; `/comfyoom config helpers @group` (or `none`); `/comfyoom config watch add #channel` (or `remove`); `/comfyoom config opt-out add #channel` (or `remove`); `/comfyoom config digest #channel` (or `off`); `/comfyoom config language auto|en|zh`; `/comfyoom config reset [setting]`.',
    zh: '用法：`/comfyoom config` 查看设置；`/comfyoom config helpers @用户组`（或 `none`）；`/comfyoom config watch add #频道`（或 `remove`）；`/comfyoom config opt-out add #频道`（或 `remove`）；`/comfyoom config digest #频道`（或 `off`）；`/comfyoom config language auto|en|zh`；`/comfyoom config reset [设置项]`。',
  },
  messageGone: { en: 'I cannot read that message any more. Paste the log with /comfyoom instead.', zh: '我读取不到那条消息了。请改用 /comfyoom 粘贴日志。' },
  askedBy: { en: 'Asked by {user} with /comfyoom', zh: '{user} 通过 /comfyoom 提问' },
} as const;
