// Texts only the Discord adapter shows (thread fallback, modal, watch-mode offer, command
// descriptions), in every language. Everything about a case itself comes from the engine.
import type { Lang } from '../../i18n/messages.ts';

type Text = Record<Lang, string>;

export const D = {
  noThread: { en: "I can't open a thread here, so I'll continue in this channel.", zh: '这里无法创建子区，我会在本频道继续。', ja: 'ここではスレッドを作成できないため、このチャンネルで続けます。', ko: '여기서는 스레드를 열 수 없어서 이 채널에서 계속할게요.', 'zh-Hant': '這裡無法建立討論串，我會在本頻道繼續。' },
  movedToDm: {
    en: "I'm not allowed to post in the channel where you asked (no Send Messages permission there), so your case continues here. Ask a moderator to let me post there.",
    zh: '我没有在你提问的频道发言的权限（缺少“发送消息”权限），所以在这里继续你的问题。可以请管理员给我那个频道的发言权限。', ja: '質問されたチャンネルには投稿する権限がない（「メッセージを送信」権限がありません）ため、ここで続けます。そのチャンネルで投稿できるよう、モデレーターに依頼してください。', ko: '질문하신 채널에는 제가 글을 쓸 수 없어서(그 채널에 메시지 보내기 권한이 없어요) 여기서 이어서 도와드릴게요. 그 채널에 제가 글을 쓸 수 있게 해 달라고 운영진에게 요청해 주세요.', 'zh-Hant': '我沒有在你提問的頻道發言的權限（缺少「傳送訊息」權限），所以在這裡繼續你的問題。可以請管理員給我那個頻道的發言權限。',
  },
  // Discord caps modal titles and labels at 45 characters, placeholders at 100.
  modalTitle: { en: 'ComfyOOM: paste your error', zh: 'ComfyOOM：粘贴报错', ja: 'ComfyOOM：エラーを貼り付け', ko: 'ComfyOOM: 오류 붙여 넣기', 'zh-Hant': 'ComfyOOM：貼上報錯' },
  modalLabel: { en: 'Error or console log', zh: '报错或控制台日志', ja: 'エラーまたはコンソールログ', ko: '오류 또는 콘솔 로그', 'zh-Hant': '報錯或控制台日誌' },
  modalPlaceholder: { en: 'The traceback, or the last 30–50 lines of the ComfyUI console', zh: '报错堆栈，或 ComfyUI 控制台最后 30–50 行', ja: 'トレースバック、または ComfyUI コンソールの最後の 30–50 行', ko: '트레이스백, 또는 ComfyUI 콘솔의 마지막 30–50줄', 'zh-Hant': '報錯堆疊，或 ComfyUI 控制台最後 30–50 行' },
  onboard: {
    en: 'To find out why ComfyUI ran out of memory I need its log: copy the console output from ComfyUI\'s start through the error and its traceback, and paste it here as text or a .txt file (the Desktop app keeps it in its logs folder and its terminal panel). While ComfyUI runs, `http://127.0.0.1:8188/system_stats` (port 8000 on the Desktop app) tells your GPU and versions too. Or press the button and paste it there.',
    zh: '要查明 ComfyUI 为什么显存/内存不足，我需要它的日志：复制从 ComfyUI 启动开始一直到报错及其堆栈的控制台输出，以文字或 .txt 文件贴在这里（桌面版的日志在它的日志文件夹和终端面板里）。ComfyUI 运行时，`http://127.0.0.1:8188/system_stats`（桌面版为 8000 端口）还能告诉我你的显卡和版本。也可以点下面的按钮粘贴。', ja: 'ComfyUI でメモリが不足した原因を調べるには、ログが必要です。ComfyUI の起動からエラーとそのトレースバックまでのコンソール出力をコピーし、テキストか .txt ファイルでここに貼り付けてください（デスクトップ版では、ログフォルダーとターミナルパネルにあります）。ComfyUI の実行中なら、`http://127.0.0.1:8188/system_stats`（デスクトップ版ではポート 8000）で GPU やバージョンもわかります。下のボタンを押して、そこに貼り付けることもできます。', ko: 'ComfyUI에서 메모리가 부족해진 이유를 찾으려면 로그가 필요해요. ComfyUI 시작부터 오류와 트레이스백까지의 콘솔 출력을 복사해서 여기에 텍스트나 .txt 파일로 붙여 넣어 주세요(데스크톱 앱은 logs 폴더와 터미널 패널에 로그가 있어요). ComfyUI가 실행 중일 때 `http://127.0.0.1:8188/system_stats`(데스크톱 앱은 8000 포트)를 열면 GPU와 버전 정보도 알 수 있어요. 아니면 버튼을 눌러 거기에 붙여 넣어도 돼요.', 'zh-Hant': '要查明 ComfyUI 為什麼視訊記憶體/記憶體不足，我需要它的日誌：複製從 ComfyUI 啟動開始一直到報錯及其堆疊的控制台輸出，以文字或 .txt 檔案貼在這裡（桌面版的日誌在它的日誌資料夾和終端面板裡）。ComfyUI 執行時，`http://127.0.0.1:8188/system_stats`（桌面版為 8000 埠）還能告訴我你的顯示卡和版本。也可以點下面的按鈕貼上。',
  },
  startButton: { en: 'Start troubleshooting', zh: '开始排查', ja: 'トラブルシューティング開始', ko: '문제 해결 시작', 'zh-Hant': '開始排查' },
  messageGone: { en: 'I cannot read that message any more. Paste the log with /comfyoom instead.', zh: '我读取不到那条消息了。请改用 /comfyoom 粘贴日志。', ja: 'そのメッセージはもう読み取れません。代わりに /comfyoom でログを貼り付けてください。', ko: '이제 그 메시지를 읽을 수 없어요. 대신 /comfyoom으로 로그를 붙여 넣어 주세요.', 'zh-Hant': '我讀取不到那條訊息了。請改用 /comfyoom 貼上日誌。' },
  noTraceback: { en: 'This message has no traceback to diagnose.', zh: '这条消息里没有可以诊断的报错。', ja: 'このメッセージには、診断できるトレースバックがありません。', ko: '이 메시지에는 진단할 트레이스백이 없어요.', 'zh-Hant': '這條訊息裡沒有可以診斷的報錯。' },
  statsAll: { en: '/comfyoom-stats all: True', zh: '/comfyoom-统计 全部: True', ja: '/comfyoom-統計 すべて: True', ko: '/comfyoom-통계 전체: True', 'zh-Hant': '/comfyoom-統計 全部: True' },
  badSince: { en: '"since" takes a number and w, d, h or m, for example 2w or 30d.', zh: '"since" 需要数字加 w、d、h 或 m，例如 2w 或 30d。', ja: '「期間」には、数字に w、d、h、m のいずれかを付けて指定してください（例：2w、30d）。', ko: '"since"(기간)에는 숫자에 w, d, h, m 중 하나를 붙여 입력하세요. 예: 2w 또는 30d.', 'zh-Hant': '"since" 需要數字加 w、d、h 或 m，例如 2w 或 30d。' },
  unreadable: {
    en: 'I cannot read the message you replied to (this bot runs without the Message Content intent). Use the message menu: Apps → Diagnose with ComfyOOM.',
    zh: '我读取不到你回复的那条消息（本机器人未开启 Message Content 权限）。请使用消息菜单：应用 → 用 ComfyOOM 诊断。', ja: '返信先のメッセージを読み取れません（このボットは Message Content intent なしで動いています）。メッセージのメニューから アプリ → ComfyOOM で診断 を使ってください。', ko: '답장하신 메시지를 읽을 수 없어요(이 봇은 Message Content intent 없이 실행되고 있어요). 메시지 메뉴에서 앱 → “ComfyOOM으로 진단”을 사용하세요.', 'zh-Hant': '我讀取不到你回覆的那條訊息（本機器人未開啟 Message Content 權限）。請使用訊息選單：應用 → 用 ComfyOOM 診斷。',
  },
  statsRefused: {
    en: "Stats are for this server's moderators (Manage Messages) and its helper role, in the server itself.",
    zh: '统计只对本服务器的管理员（“管理消息”权限）和助手身份组开放，并且要在服务器里使用。', ja: '統計は、このサーバーのモデレーター（「メッセージの管理」権限）とヘルパーロールのメンバーが、サーバー内でのみ使えます。', ko: '통계는 이 서버의 운영진(메시지 관리하기 권한)과 도우미 역할만 서버 안에서 볼 수 있어요.', 'zh-Hant': '統計只對本伺服器的管理員（「管理訊息」權限）和助手身份組開放，並且要在伺服器裡使用。',
  },
  configRefused: {
    en: "ComfyOOM's settings for this server are changed by its admins (Manage Server), in the server itself.",
    zh: '本服务器的 ComfyOOM 设置只能由服务器管理员（“管理服务器”权限）在服务器里修改。', ja: 'このサーバーの ComfyOOM の設定は、サーバーの管理者（「サーバー管理」権限）がサーバー内でのみ変更できます。', ko: '이 서버의 ComfyOOM 설정은 서버 관리자(서버 관리하기 권한)만 서버 안에서 바꿀 수 있어요.', 'zh-Hant': '本伺服器的 ComfyOOM 設定只能由伺服器管理員（「管理伺服器」權限）在伺服器裡修改。',
  },
  failed: {
    en: 'Something went wrong while talking to Discord. Your case is saved: press "Show current step" (or mention me in the case thread) to go on.',
    zh: '与 Discord 通信时出错了。你的问题记录已保存：点“显示当前步骤”（或在问题子区里 @我）即可继续。', ja: 'Discord との通信中に問題が発生しました。ケースは保存されています。「現在のステップを表示」を押すか、ケースのスレッドで私をメンションして続けてください。', ko: 'Discord와 통신하는 중에 문제가 생겼어요. 케이스는 저장되어 있으니 "현재 단계 보기"를 누르거나 케이스 스레드에서 저를 멘션해서 계속하세요.', 'zh-Hant': '與 Discord 通訊時出錯了。你的問題記錄已儲存：點「顯示當前步驟」（或在問題討論串裡 @我）即可繼續。',
  },
} satisfies Record<string, Text>;

/** Command names and descriptions, as Discord shows them in the command picker. */
export const COMMAND_TEXT = {
  diagnoseName: { en: 'comfyoom', zh: 'comfyoom', ja: 'comfyoom', ko: 'comfyoom', 'zh-Hant': 'comfyoom' },
  diagnose: { en: 'Diagnose a ComfyUI out-of-memory error and fix it step by step', zh: '诊断 ComfyUI 内存不足错误，并一步步修复', ja: 'ComfyUI のメモリ不足エラーを診断し、1 ステップずつ解決します', ko: 'ComfyUI 메모리 부족 오류를 진단하고 단계별로 해결해요', 'zh-Hant': '診斷 ComfyUI 記憶體不足錯誤，並一步步修復' },
  logName: { en: 'log', zh: '日志', ja: 'ログ', ko: '로그', 'zh-Hant': '日誌' },
  log: { en: 'The error or console log (leave empty to paste a long one)', zh: '报错或控制台日志（留空可粘贴长日志）', ja: 'エラーまたはコンソールログ（長いログを貼るときは空欄のまま）', ko: '오류 또는 콘솔 로그(긴 로그를 붙여 넣으려면 비워 두세요)', 'zh-Hant': '報錯或控制台日誌（留空可貼上長日誌）' },
  fileName: { en: 'file', zh: '文件', ja: 'ファイル', ko: '파일', 'zh-Hant': '檔案' },
  file: { en: 'A .txt or .log file with the console output', zh: '包含控制台输出的 .txt 或 .log 文件', ja: 'コンソール出力を含む .txt または .log ファイル', ko: '콘솔 출력이 담긴 .txt 또는 .log 파일', 'zh-Hant': '包含控制台輸出的 .txt 或 .log 檔案' },
  languageName: { en: 'language', zh: '语言', ja: '言語', ko: '언어', 'zh-Hant': '語言' },
  language: { en: 'Answer in this language', zh: '回复语言', ja: '回答に使う言語', ko: '답변할 언어', 'zh-Hant': '回覆語言' },
  english: { en: 'English', zh: '英文', ja: '英語', ko: '영어', 'zh-Hant': '英文' },
  statsName: { en: 'comfyoom-stats', zh: 'comfyoom-统计', ja: 'comfyoom-統計', ko: 'comfyoom-통계', 'zh-Hant': 'comfyoom-統計' },
  stats: { en: "Which fixes work: this server's case statistics (moderators)", zh: '哪些修复有效：本服务器的问题统计（管理员）', ja: 'どの解決策が効いたか：このサーバーのケース統計（モデレーター向け）', ko: '어떤 해결 방법이 효과가 있는지: 이 서버의 케이스 통계(운영진)', 'zh-Hant': '哪些修復有效：本伺服器的問題統計（管理員）' },
  sinceName: { en: 'since', zh: '时间范围', ja: '期間', ko: '기간', 'zh-Hant': '時間範圍' },
  since: { en: 'Only cases newer than this, e.g. 30d, 12h', zh: '只统计这段时间内的问题，例如 30d、12h', ja: 'この期間内のケースだけを集計（例：30d、12h）', ko: '이보다 최근 케이스만 집계, 예: 30d, 12h', 'zh-Hant': '只統計這段時間內的問題，例如 30d、12h' },
  allName: { en: 'all', zh: '全部', ja: 'すべて', ko: '전체', 'zh-Hant': '全部' },
  all: { en: 'Every entry, step and week, with kb ids, as a file (default: the top ones, one screen)', zh: '所有条目、步骤和每周数据，附 kb 编号，作为文件发送（默认只显示最多的，一屏）', ja: 'すべての項目・ステップ・週を kb の ID 付きでファイルとして送信（既定：上位のみ、1 画面分）', ko: '모든 항목, 단계, 주별 데이터를 kb ID와 함께 파일로 받기(기본값: 상위 항목만, 한 화면)', 'zh-Hant': '所有條目、步驟和每週資料，附 kb 編號，作為檔案傳送（預設只顯示最多的，一屏）' },
  forgetName: { en: 'comfyoom-forget', zh: 'comfyoom-删除记录', ja: 'comfyoom-記録削除', ko: 'comfyoom-기록삭제', 'zh-Hant': 'comfyoom-刪除記錄' },
  forget: { en: 'Delete your cases and answers from ComfyOOM (asks first)', zh: '从 ComfyOOM 删除你的问题记录和回答（会先确认）', ja: 'ComfyOOM からあなたのケースと回答を削除します（実行前に確認します）', ko: 'ComfyOOM에서 내 케이스와 답변 삭제(먼저 확인해요)', 'zh-Hant': '從 ComfyOOM 刪除你的問題記錄和回答（會先確認）' },
  relabelName: { en: 'comfyoom-relabel', zh: 'comfyoom-更正诊断', ja: 'comfyoom-診断訂正', ko: 'comfyoom-진단수정', 'zh-Hant': 'comfyoom-更正診斷' },
  relabel: { en: 'Correct a case\'s diagnosis, for stats and learning (moderators)', zh: '更正某个问题的诊断，用于统计和学习（管理员）', ja: '統計と学習のため、ケースの診断を訂正します（モデレーター向け）', ko: '통계와 학습을 위해 케이스의 진단 수정(운영진)', 'zh-Hant': '更正某個問題的診斷，用於統計和學習（管理員）' },
  caseName: { en: 'case', zh: '问题编号', ja: 'ケース', ko: '케이스', 'zh-Hant': '問題編號' },
  caseOption: { en: 'The case id (shown in stats and the hand-over summary)', zh: '问题编号（见统计和交接小结）', ja: 'ケース ID（統計や引き継ぎのまとめに表示されます）', ko: '케이스 ID(통계와 인계 요약에 표시돼요)', 'zh-Hant': '問題編號（見統計和交接小結）' },
  entryName: { en: 'entry', zh: '条目', ja: '項目', ko: '항목', 'zh-Hant': '條目' },
  entryOption: { en: 'The kb entry it really was, e.g. ram-oom', zh: '它实际对应的 kb 条目，例如 ram-oom', ja: '実際に該当していた kb の項目（例：ram-oom）', ko: '실제로 해당하는 kb 항목, 예: ram-oom', 'zh-Hant': '它實際對應的 kb 條目，例如 ram-oom' },
  contextMenu: { en: 'Diagnose with ComfyOOM', zh: '用 ComfyOOM 诊断', ja: 'ComfyOOM で診断', ko: 'ComfyOOM으로 진단', 'zh-Hant': '用 ComfyOOM 診斷' },
  configName: { en: 'comfyoom-config', zh: 'comfyoom-设置', ja: 'comfyoom-設定', ko: 'comfyoom-설정', 'zh-Hant': 'comfyoom-設定' },
  config: { en: "ComfyOOM's settings for this server (admins)", zh: '本服务器的 ComfyOOM 设置（管理员）', ja: 'このサーバーでの ComfyOOM の設定（管理者向け）', ko: '이 서버의 ComfyOOM 설정(관리자)', 'zh-Hant': '本伺服器的 ComfyOOM 設定（管理員）' },
  showName: { en: 'show', zh: '查看', ja: '表示', ko: '보기', 'zh-Hant': '檢視' },
  show: { en: 'Show the settings', zh: '查看当前设置', ja: '設定を表示します', ko: '설정 보기', 'zh-Hant': '檢視當前設定' },
  helpersName: { en: 'helpers', zh: '帮手', ja: 'ヘルパー', ko: '도우미', 'zh-Hant': '幫手' },
  helpers: { en: 'The role pinged when a case runs out of steps; its members may answer any case (none: nobody)', zh: '问题的步骤用完时提醒的身份组，其成员可以回答任何问题（不选：无）', ja: 'ケースのステップが尽きたときに通知するロール。メンバーはどのケースにも回答できます（未指定：なし）', ko: '케이스의 단계가 다 떨어지면 호출할 역할. 이 역할의 멤버는 모든 케이스에 답할 수 있어요(없음: 아무도 없음)', 'zh-Hant': '問題的步驟用完時提醒的身份組，其成員可以回答任何問題（不選：無）' },
  roleName: { en: 'role', zh: '身份组', ja: 'ロール', ko: '역할', 'zh-Hant': '身份組' },
  role: { en: "The helpers' role", zh: '帮手的身份组', ja: 'ヘルパーのロール', ko: '도우미 역할', 'zh-Hant': '幫手的身份組' },
  watchName: { en: 'watch', zh: '关注', ja: '監視', ko: '감시', 'zh-Hant': '關注' },
  watch: { en: 'Channels where an out-of-memory error posted gets an offer of help', zh: '有人贴出内存不足错误时主动提供帮助的频道', ja: 'メモリ不足エラーが投稿されたら、手助けを申し出るチャンネル', ko: '메모리 부족 오류가 올라오면 도움을 제안할 채널', 'zh-Hant': '有人貼出記憶體不足錯誤時主動提供幫助的頻道' },
  optOutName: { en: 'opt-out', zh: '静默', ja: '除外', ko: '제외', 'zh-Hant': '靜默' },
  optOut: { en: 'Channels where ComfyOOM starts nothing', zh: 'ComfyOOM 不主动参与的频道', ja: 'ComfyOOM が自分からは何も始めないチャンネル', ko: 'ComfyOOM이 먼저 아무것도 시작하지 않는 채널', 'zh-Hant': 'ComfyOOM 不主動參與的頻道' },
  addName: { en: 'add', zh: '添加', ja: '追加', ko: '추가', 'zh-Hant': '新增' },
  add: { en: 'Add a channel', zh: '添加一个频道', ja: 'チャンネルを追加します', ko: '채널 추가', 'zh-Hant': '新增一個頻道' },
  removeName: { en: 'remove', zh: '移除', ja: '解除', ko: '제거', 'zh-Hant': '移除' },
  remove: { en: 'Remove a channel', zh: '移除一个频道', ja: 'チャンネルを外します', ko: '채널 제거', 'zh-Hant': '移除一個頻道' },
  channelName: { en: 'channel', zh: '频道', ja: 'チャンネル', ko: '채널', 'zh-Hant': '頻道' },
  channel: { en: 'The channel (a forum covers its posts)', zh: '频道（论坛频道包括其中的帖子）', ja: 'チャンネル（フォーラムの場合はその投稿すべてが対象）', ko: '채널(포럼은 그 안의 게시물도 포함)', 'zh-Hant': '頻道（論壇頻道包括其中的帖子）' },
  digestName: { en: 'digest', zh: '周报', ja: '週報', ko: '주간요약', 'zh-Hant': '週報' },
  digest: { en: 'Where the weekly digest for moderators goes (none: off)', zh: '每周统计摘要发到哪个频道（不选：关闭）', ja: 'モデレーター向けの週次まとめを送るチャンネル（未指定：オフ）', ko: '운영진용 주간 요약을 보낼 곳(없음: 끄기)', 'zh-Hant': '每週統計摘要發到哪個頻道（不選：關閉）' },
  digestChannel: { en: 'The moderators\' channel', zh: '管理员频道', ja: 'モデレーター用のチャンネル', ko: '운영진 채널', 'zh-Hant': '管理員頻道' },
  defaultLanguage: { en: 'The language when a user\'s words and Discord language do not tell', zh: '无法从用户的文字和 Discord 语言判断时使用的语言', ja: 'ユーザーの文章や Discord の言語設定から判断できないときに使う言語', ko: '사용자의 글과 Discord 언어로 알 수 없을 때 쓸 언어', 'zh-Hant': '無法從使用者的文字和 Discord 語言判斷時使用的語言' },
  auto: { en: 'Automatic', zh: '自动', ja: '自動', ko: '자동', 'zh-Hant': '自動' },
  resetName: { en: 'reset', zh: '恢复默认', ja: 'リセット', ko: '초기화', 'zh-Hant': '恢復預設' },
  reset: { en: 'Back to the bot\'s defaults: one setting, or all', zh: '恢复机器人的默认设置：某一项或全部', ja: 'ボットの既定値に戻します：1 つの設定、またはすべて', ko: '봇 기본값으로 되돌리기: 설정 하나 또는 전체', 'zh-Hant': '恢復機器人的預設設定：某一項或全部' },
  settingName: { en: 'setting', zh: '设置项', ja: '設定項目', ko: '설정항목', 'zh-Hant': '設定項' },
  setting: { en: 'The setting (none: all of them)', zh: '设置项（不选：全部）', ja: '設定項目（未指定：すべて）', ko: '설정 항목(없음: 전체)', 'zh-Hant': '設定項（不選：全部）' },
} satisfies Record<string, Text>;

export const say = (text: Text, lang: Lang, vars: Record<string, string> = {}) =>
  Object.entries(vars).reduce((s, [k, v]) => s.replaceAll(`{${k}}`, v), text[lang]);
