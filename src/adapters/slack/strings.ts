// Texts only the Slack adapter shows (its modal, its refusals); the conversation's own texts come
// from src/conversation. Both languages, picked with langFor(locale, text) like everything else.
export const S = {
  modalTitle: { en: 'ComfyOOM', zh: 'ComfyOOM', ja: 'ComfyOOM', ko: 'ComfyOOM', 'zh-Hant': 'ComfyOOM' },
  modalLabel: { en: 'Paste the error or the end of the console log', zh: '粘贴报错或控制台日志的最后部分', ja: 'エラーまたはコンソールログの末尾を貼り付けてください', ko: '오류나 콘솔 로그의 마지막 부분을 붙여 넣으세요', 'zh-Hant': '貼上報錯或控制台日誌的最後部分' },
  modalHint: {
    en: 'The last 30–50 lines are enough. For a longer log, attach the .txt/.log file in a channel and mention me.',
    zh: '最后 30–50 行就够了。日志更长时，请在频道里上传 .txt/.log 文件并 @ 我。', ja: '最後の 30–50 行で十分です。もっと長いログは、チャンネルに .txt/.log ファイルを添付して私をメンションしてください。', ko: '마지막 30–50줄이면 충분해요. 로그가 더 길면 채널에 .txt/.log 파일을 첨부하고 저를 멘션해 주세요.', 'zh-Hant': '最後 30–50 行就夠了。日誌更長時，請在頻道里上傳 .txt/.log 檔案並 @ 我。',
  },
  modalSubmit: { en: 'Diagnose', zh: '诊断', ja: '診断する', ko: '진단', 'zh-Hant': '診斷' },
  reading: { en: 'Reading your file…', zh: '正在读取你的文件…', ja: 'ファイルを読み込んでいます…', ko: '파일을 읽는 중…', 'zh-Hant': '正在讀取你的檔案…' },
  itsThread: { en: 'Go to its thread', zh: '前往它的讨论串', ja: 'スレッドへ移動', ko: '스레드로 이동', 'zh-Hant': '前往它的討論串' },
  modalCancel: { en: 'Cancel', zh: '取消', ja: 'キャンセル', ko: '취소', 'zh-Hant': '取消' },
  modalEmpty: { en: 'Paste a log first.', zh: '请先粘贴日志。', ja: '先にログを貼り付けてください。', ko: '먼저 로그를 붙여 넣어 주세요.', 'zh-Hant': '請先貼上日誌。' },
  cannotPost: {
    en: 'I can’t post in this channel. Invite me with `/invite @ComfyOOM`, or use /comfyoom in a channel I am in.',
    zh: '我无法在这个频道发消息。请用 `/invite @ComfyOOM` 邀请我，或在我所在的频道里使用 /comfyoom。', ja: 'このチャンネルには投稿できません。`/invite @ComfyOOM` で私を招待するか、私が参加しているチャンネルで /comfyoom を使ってください。', ko: '이 채널에는 글을 쓸 수 없어요. `/invite @ComfyOOM`으로 저를 초대하거나, 제가 있는 채널에서 /comfyoom을 사용하세요.', 'zh-Hant': '我無法在這個頻道發訊息。請用 `/invite @ComfyOOM` 邀請我，或在我所在的頻道里使用 /comfyoom。',
  },
  cannotPostDm: {
    en: 'I can’t post in this conversation (a direct message between other people). Send me the log in a direct message to ComfyOOM, or use /comfyoom in a channel I am in.',
    zh: '我无法在这个对话（其他人之间的私信）里发消息。请直接私信 ComfyOOM 发送日志，或在我所在的频道里使用 /comfyoom。', ja: 'この会話（他の人同士のダイレクトメッセージ）には投稿できません。ComfyOOM へのダイレクトメッセージでログを送るか、私が参加しているチャンネルで /comfyoom を使ってください。', ko: '이 대화(다른 분들 사이의 DM)에는 글을 쓸 수 없어요. ComfyOOM에게 DM으로 로그를 보내거나, 제가 있는 채널에서 /comfyoom을 사용하세요.', 'zh-Hant': '我無法在這個對話（其他人之間的私信）裡發訊息。請直接私信 ComfyOOM 傳送日誌，或在我所在的頻道里使用 /comfyoom。',
  },
  modalFailed: {
    en: 'I couldn’t open the form for your log. Paste it right after the command (`/comfyoom <error>`), or attach the .txt/.log file in a channel and mention me.',
    zh: '无法打开粘贴日志的表单。请直接在命令后粘贴（`/comfyoom <报错>`），或在频道里上传 .txt/.log 文件并 @ 我。', ja: 'ログ入力用のフォームを開けませんでした。コマンドのすぐ後ろにエラーを貼り付けるか（`/comfyoom <error>`）、チャンネルに .txt/.log ファイルを添付して私をメンションしてください。', ko: '로그 입력 양식을 열 수 없었어요. 명령 바로 뒤에 붙여 넣거나(`/comfyoom <error>`), 채널에 .txt/.log 파일을 첨부하고 저를 멘션해 주세요.', 'zh-Hant': '無法開啟貼上日誌的表單。請直接在命令後貼上（`/comfyoom <報錯>`），或在頻道里上傳 .txt/.log 檔案並 @ 我。',
  },
  noTraceback: {
    en: 'No traceback here to diagnose. Paste the error (or attach a .txt/.log file or a screenshot) and mention me, or use /comfyoom.',
    zh: '这里没有可诊断的报错。请粘贴报错（或上传 .txt/.log 文件或截图）并 @ 我，或者使用 /comfyoom。', ja: 'ここには診断できるトレースバックがありません。エラーを貼り付けて（または .txt/.log ファイルかスクリーンショットを添付して）私をメンションするか、/comfyoom を使ってください。', ko: '여기에는 진단할 트레이스백이 없어요. 오류를 붙여 넣고(또는 .txt/.log 파일이나 스크린샷을 첨부하고) 저를 멘션하거나, /comfyoom을 사용하세요.', 'zh-Hant': '這裡沒有可診斷的報錯。請貼上報錯（或上傳 .txt/.log 檔案或截圖）並 @ 我，或者使用 /comfyoom。',
  },
  statsRefused: {
    en: 'Sorry, the statistics are only for ComfyOOM admins. Ask one of them if you need numbers.',
    zh: '抱歉，统计数据只对 ComfyOOM 管理员开放。如需数据，请联系管理员。', ja: 'すみません、統計は ComfyOOM の管理者専用です。数値が必要なら、管理者に聞いてみてください。', ko: '죄송해요, 통계는 ComfyOOM 관리자만 볼 수 있어요. 수치가 필요하면 관리자에게 문의해 주세요.', 'zh-Hant': '抱歉，統計資料只對 ComfyOOM 管理員開放。如需資料，請聯絡管理員。',
  },
  statsUsage: {
    en: 'Usage: `/comfyoom stats` or `/comfyoom stats 30d` (also 12h, 90m); add `all` for every entry, step and week, with kb ids.',
    zh: '用法：`/comfyoom stats` 或 `/comfyoom stats 30d`（也可以是 12h、90m）；加上 `all`（或 `全部`）显示所有条目、步骤和每周数据，附 kb 编号。', ja: '使い方：`/comfyoom stats` または `/comfyoom stats 30d`（12h、90m なども可）。`all` を付けると、すべての項目・ステップ・週を kb の ID 付きで表示します。', ko: '사용법: `/comfyoom stats` 또는 `/comfyoom stats 30d`(12h, 90m도 가능). `all`을 붙이면 모든 항목, 단계, 주별 데이터를 kb ID와 함께 보여 줘요.', 'zh-Hant': '用法：`/comfyoom stats` 或 `/comfyoom stats 30d`（也可以是 12h、90m）；加上 `all`（或 `全部`）顯示所有條目、步驟和每週資料，附 kb 編號。',
  },
  statsAll: { en: '/comfyoom stats all', zh: '/comfyoom stats 全部', ja: '/comfyoom stats all', ko: '/comfyoom stats all', 'zh-Hant': '/comfyoom stats 全部' },
  relabelUsage: {
    en: 'Usage: `/comfyoom relabel CASE ENTRY`, e.g. `/comfyoom relabel a1b2c3 ram-oom` (the newest misdiagnosed cases are listed in `/comfyoom stats`).',
    zh: '用法：`/comfyoom relabel 问题编号 条目`，例如 `/comfyoom relabel a1b2c3 ram-oom`（最近被指出误诊的问题列在 `/comfyoom stats` 里）。', ja: '使い方：`/comfyoom relabel CASE ENTRY`（CASE はケース ID、ENTRY は kb の項目）。例：`/comfyoom relabel a1b2c3 ram-oom`（誤診と指摘された最近のケースは `/comfyoom stats` に表示されます）。', ko: '사용법: `/comfyoom relabel CASE ENTRY`(CASE는 케이스 ID, ENTRY는 kb 항목). 예: `/comfyoom relabel a1b2c3 ram-oom` (최근 오진된 케이스는 `/comfyoom stats`에 나와요).', 'zh-Hant': '用法：`/comfyoom relabel 問題編號 條目`，例如 `/comfyoom relabel a1b2c3 ram-oom`（最近被指出誤診的問題列在 `/comfyoom stats` 裡）。',
  },
  usage: {
    en: '`/comfyoom <error text>` diagnoses a pasted error; `/comfyoom` alone opens a form for a longer log. You can also mention me under a message with a traceback or a log file, use the “Diagnose with ComfyOOM” message shortcut, or send me the log in a direct message. `/comfyoom forget` deletes your cases and answers.',
    zh: '`/comfyoom <报错文字>` 诊断粘贴的报错；只输入 `/comfyoom` 会打开一个表单，用来粘贴较长的日志。也可以在含有报错或日志文件的消息下 @ 我、使用消息快捷方式“Diagnose with ComfyOOM”，或直接私信我日志。`/comfyoom forget` 删除你的问题记录和回答。', ja: '`/comfyoom <error text>` で、貼り付けたエラーを診断します。`/comfyoom` だけを入力すると、長いログ用のフォームが開きます。トレースバックやログファイルのあるメッセージで私をメンションしたり、メッセージショートカット「Diagnose with ComfyOOM」を使ったり、ダイレクトメッセージでログを送ったりすることもできます。`/comfyoom forget` で、あなたのケースと回答を削除します。', ko: '`/comfyoom <error text>`는 붙여 넣은 오류를 진단하고, `/comfyoom`만 입력하면 긴 로그를 붙여 넣을 수 있는 양식이 열려요. 트레이스백이나 로그 파일이 있는 메시지 아래에서 저를 멘션하거나, “Diagnose with ComfyOOM” 메시지 바로 가기를 쓰거나, DM으로 로그를 보내도 돼요. `/comfyoom forget`은 내 케이스와 답변을 삭제해요.', 'zh-Hant': '`/comfyoom <報錯文字>` 診斷貼上的報錯；只輸入 `/comfyoom` 會開啟一個表單，用來貼上較長的日誌。也可以在含有報錯或日誌檔案的訊息下 @ 我、使用訊息快捷方式「Diagnose with ComfyOOM」，或直接私信我日誌。`/comfyoom forget` 刪除你的問題記錄和回答。',
  },
  configRefused: {
    en: "ComfyOOM's settings for this workspace are changed by its admins (workspace admins and owners, and the bot's SLACK_ADMINS).",
    zh: '本工作区的 ComfyOOM 设置只能由管理员（工作区管理员和所有者，以及机器人的 SLACK_ADMINS）修改。', ja: 'このワークスペースの ComfyOOM の設定は、管理者（ワークスペースの管理者とオーナー、およびボットの SLACK_ADMINS）だけが変更できます。', ko: '이 워크스페이스의 ComfyOOM 설정은 관리자(워크스페이스 관리자와 소유자, 그리고 봇의 SLACK_ADMINS)만 바꿀 수 있어요.', 'zh-Hant': '本工作區的 ComfyOOM 設定只能由管理員（工作區管理員和所有者，以及機器人的 SLACK_ADMINS）修改。',
  },
  configUsage: {
    en: 'Usage: `/comfyoom config` shows the settings; `/comfyoom config helpers @group` (or `none`); `/comfyoom config watch add #channel` (or `remove`); `/comfyoom config opt-out add #channel` (or `remove`); `/comfyoom config digest #channel` (or `off`); `/comfyoom config language auto|en|zh|zh-Hant|ja|ko`; `/comfyoom config reset [setting]`.',
    zh: '用法：`/comfyoom config` 查看设置；`/comfyoom config helpers @用户组`（或 `none`）；`/comfyoom config watch add #频道`（或 `remove`）；`/comfyoom config opt-out add #频道`（或 `remove`）；`/comfyoom config digest #频道`（或 `off`）；`/comfyoom config language auto|en|zh|zh-Hant|ja|ko`；`/comfyoom config reset [设置项]`。', ja: '使い方：`/comfyoom config` で設定を表示。`/comfyoom config helpers @group`（または `none`）、`/comfyoom config watch add #channel`（または `remove`）、`/comfyoom config opt-out add #channel`（または `remove`）、`/comfyoom config digest #channel`（または `off`）、`/comfyoom config language auto|en|zh|zh-Hant|ja|ko`、`/comfyoom config reset [setting]`。', ko: '사용법: `/comfyoom config`는 설정을 보여 줘요. `/comfyoom config helpers @group`(또는 `none`), `/comfyoom config watch add #channel`(또는 `remove`), `/comfyoom config opt-out add #channel`(또는 `remove`), `/comfyoom config digest #channel`(또는 `off`), `/comfyoom config language auto|en|zh|zh-Hant|ja|ko`, `/comfyoom config reset [setting]`.', 'zh-Hant': '用法：`/comfyoom config` 檢視設定；`/comfyoom config helpers @使用者組`（或 `none`）；`/comfyoom config watch add #頻道`（或 `remove`）；`/comfyoom config opt-out add #頻道`（或 `remove`）；`/comfyoom config digest #頻道`（或 `off`）；`/comfyoom config language auto|en|zh|zh-Hant|ja|ko`；`/comfyoom config reset [設定項]`。',
  },
  messageGone: { en: 'I cannot read that message any more. Paste the log with /comfyoom instead.', zh: '我读取不到那条消息了。请改用 /comfyoom 粘贴日志。', ja: 'そのメッセージはもう読み取れません。代わりに /comfyoom でログを貼り付けてください。', ko: '이제 그 메시지를 읽을 수 없어요. 대신 /comfyoom으로 로그를 붙여 넣어 주세요.', 'zh-Hant': '我讀取不到那條訊息了。請改用 /comfyoom 貼上日誌。' },
  askedBy: { en: 'Asked by {user} with /comfyoom', zh: '{user} 通过 /comfyoom 提问', ja: '{user} さんが /comfyoom で質問しました', ko: '{user} 님이 /comfyoom으로 요청함', 'zh-Hant': '{user} 通過 /comfyoom 提問' },
} as const;
