// Fixed texts of a tailored plan, in every language: who a launch snippet is for and how to apply
// it, what a build needs, why a step was left out.
import type { Text } from '../kb/schema.ts';
import { inEvery } from '../i18n/messages.ts';

const MONTHS_EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-06" as people say it: "June 2026", "2026 年 6 月". */
export function monthText(month: string): Text {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return { en: `${MONTHS_EN[m - 1]} ${year}`, zh: `${year} 年 ${m} 月`, ja: `${year}年${m}月`, ko: `${year}년 ${m}월`, 'zh-Hant': `${year} 年 ${m} 月` };
}

/** Replaces {name} placeholders in every language at once. */
export function format(text: Text, values: Record<string, string | Text>): Text {
  return inEvery((lang) =>
    text[lang].replace(/\{(\w+)\}/g, (m, k: string) => {
      const v = values[k];
      return v === undefined ? m : typeof v === 'string' ? v : v[lang];
    }),
  );
}

export const P = {
  label: {
    portableNvidia: { en: 'Windows portable ({file})', zh: 'Windows 便携版（{file}）', ja: 'Windows ポータブル版（{file}）', ko: 'Windows 포터블 ({file})', 'zh-Hant': 'Windows 便攜版（{file}）' },
    portableEither: { en: 'Windows portable ({file}; AMD: {amdFile}, same line)', zh: 'Windows 便携版（{file}；AMD 版为 {amdFile}，同一行）', ja: 'Windows ポータブル版（{file}。AMD 版は {amdFile} の同じ行）', ko: 'Windows 포터블 ({file}; AMD: {amdFile}, 같은 줄)', 'zh-Hant': 'Windows 便攜版（{file}；AMD 版為 {amdFile}，同一行）' },
    portableAmd: { en: 'Windows portable for AMD ({file})', zh: 'Windows 便携版 AMD（{file}）', ja: 'AMD 用 Windows ポータブル版（{file}）', ko: 'AMD용 Windows 포터블 ({file})', 'zh-Hant': 'Windows 便攜版 AMD（{file}）' },
    portableIntel: { en: 'Windows portable for Intel ({file})', zh: 'Windows 便携版 Intel（{file}）', ja: 'Intel 用 Windows ポータブル版（{file}）', ko: 'Intel용 Windows 포터블 ({file})', 'zh-Hant': 'Windows 便攜版 Intel（{file}）' },
    zluda: { en: 'ComfyUI-Zluda ({file})', zh: 'ComfyUI-Zluda（{file}）', ja: 'ComfyUI-Zluda（{file}）', ko: 'ComfyUI-Zluda ({file})', 'zh-Hant': 'ComfyUI-Zluda（{file}）' },
    desktop: { en: 'ComfyUI Desktop', zh: 'ComfyUI 桌面版', ja: 'ComfyUI デスクトップ版', ko: 'ComfyUI 데스크톱', 'zh-Hant': 'ComfyUI 桌面版' },
    comfyDesktop: { en: 'Comfy Desktop (the newer app that manages installations)', zh: 'Comfy Desktop（管理多个安装的新版应用）', ja: 'Comfy Desktop（複数のインストールを管理する新しいアプリ）', ko: 'Comfy Desktop (설치를 관리하는 새 앱)', 'zh-Hant': 'Comfy Desktop（管理多個安裝的新版應用）' },
    manualWindows: { en: 'Manual install (Windows, in Command Prompt)', zh: '手动安装（Windows，在命令提示符 cmd 中）', ja: '手動インストール（Windows、コマンド プロンプトで）', ko: '수동 설치 (Windows, 명령 프롬프트에서)', 'zh-Hant': '手動安裝（Windows，在命令提示符 cmd 中）' },
    manualPosix: { en: 'Manual install (terminal)', zh: '手动安装（终端）', ja: '手動インストール（ターミナル）', ko: '수동 설치 (터미널)', 'zh-Hant': '手動安裝（終端）' },
    manual: { en: 'Manual install', zh: '手动安装', ja: '手動インストール', ko: '수동 설치', 'zh-Hant': '手動安裝' },
    launcher: { en: 'One-click bundle launcher (秋叶/绘世)', zh: '整合包启动器（秋叶/绘世）', ja: '統合パッケージのランチャー（秋叶/绘世）', ko: '원클릭 통합 패키지 런처 (秋叶/绘世)', 'zh-Hant': '整合包啟動器（秋葉/繪世）' },
    docker: { en: "Docker (the container's start command)", zh: 'Docker（容器的启动命令）', ja: 'Docker（コンテナーの起動コマンド）', ko: 'Docker (컨테이너 시작 명령)', 'zh-Hant': 'Docker（容器的啟動命令）' },
    command: { en: 'Command', zh: '命令', ja: 'コマンド', ko: '명령', 'zh-Hant': '命令' },
    portableCommand: { en: 'Windows portable (in the ComfyUI_windows_portable folder)', zh: 'Windows 便携版（在 ComfyUI_windows_portable 文件夹里运行）', ja: 'Windows ポータブル版（ComfyUI_windows_portable フォルダーで実行）', ko: 'Windows 포터블 (ComfyUI_windows_portable 폴더에서)', 'zh-Hant': 'Windows 便攜版（在 ComfyUI_windows_portable 資料夾裡執行）' },
    otherCommand: { en: 'Manual install (in ComfyUI’s folder, with its Python environment active)', zh: '手动安装（在 ComfyUI 文件夹里、激活它的 Python 环境后运行）', ja: '手動インストール（ComfyUI のフォルダーで、その Python 環境を有効にして実行）', ko: '수동 설치 (ComfyUI 폴더에서, Python 환경을 활성화한 상태로)', 'zh-Hant': '手動安裝（在 ComfyUI 資料夾裡、啟用它的 Python 環境後執行）' },
    portableCommandIn: { en: 'Windows portable (in {where})', zh: 'Windows 便携版（在 {where}里运行）', ja: 'Windows ポータブル版（{where} で実行）', ko: 'Windows 포터블 ({where}에서)', 'zh-Hant': 'Windows 便攜版（在 {where}裡執行）' },
    otherCommandIn: { en: 'Manual install (in {where}, with ComfyUI’s Python environment active)', zh: '手动安装（在 {where}里、激活 ComfyUI 的 Python 环境后运行）', ja: '手動インストール（{where} で、ComfyUI の Python 環境を有効にして実行）', ko: '수동 설치 ({where}에서, ComfyUI의 Python 환경을 활성화한 상태로)', 'zh-Hant': '手動安裝（在 {where}裡、啟用 ComfyUI 的 Python 環境後執行）' },
  },
  how: {
    yourLine: {
      en: 'Your launch line from the log, changed ({change}):',
      zh: '这是日志里你的启动命令，已改好（{change}）：', ja: 'ログにあった起動コマンドを変更したものです（{change}）：', ko: '로그에 있는 실행 명령을 이렇게 고쳤어요({change}):', 'zh-Hant': '這是日誌裡你的啟動命令，已改好（{change}）：',
    },
    yourLineHidden: {
      en: 'Your launch line from the log, changed ({change}); … is a value the log hides, keep yours there:',
      zh: '这是日志里你的启动命令，已改好（{change}）；… 是日志隐藏的取值，请保留你原来的：', ja: 'ログにあった起動コマンドを変更したものです（{change}）。… はログで伏せられている値なので、そこはご自分の値のままにしてください：', ko: '로그에 있는 실행 명령을 이렇게 고쳤어요({change}). …은 로그에서 가려진 값이니, 그 자리에는 원래 값을 그대로 두세요:', 'zh-Hant': '這是日誌裡你的啟動命令，已改好（{change}）；… 是日誌隱藏的取值，請保留你原來的：',
    },
    portableLine: {
      en: 'Open {file} in Notepad and change the `python_embeded` line ({change}), keeping anything else already on it. The whole line then reads:',
      zh: '用记事本打开 {file}，修改 `python_embeded` 那一行（{change}），行上原有的其他参数保留。改好后整行是：', ja: '{file} をメモ帳で開き、`python_embeded` の行を変更してください（{change}）。その行にすでにあるものはそのまま残します。変更後の行全体は次のとおりです：', ko: '메모장으로 {file} 파일을 열고 `python_embeded` 줄을 수정하세요({change}). 그 줄에 이미 있는 다른 내용은 그대로 두세요. 수정하면 줄 전체가 이렇게 돼요:', 'zh-Hant': '用記事本開啟 {file}，修改 `python_embeded` 那一行（{change}），行上原有的其他參數保留。改好後整行是：',
    },
    zludaLine: {
      en: 'In {file}, change the `set "COMMANDLINE_ARGS=..."` line ({change}); … stands for the flags already there:',
      zh: '在 {file} 里修改 `set "COMMANDLINE_ARGS=..."` 这一行（{change}）；… 代表行里原有的参数：', ja: '{file} の `set "COMMANDLINE_ARGS=..."` の行を変更してください（{change}）。… はすでにあるオプションを表します：', ko: '{file} 파일에서 `set "COMMANDLINE_ARGS=..."` 줄을 수정하세요({change}). …은 이미 들어 있는 옵션을 뜻해요:', 'zh-Hant': '在 {file} 裡修改 `set "COMMANDLINE_ARGS=..."` 這一行（{change}）；… 代表行裡原有的參數：',
    },
    launcher: {
      en: "Your ComfyUI starts from its bundle's launcher, which writes the command line from its own settings: make this change there ({change}), in the launcher's settings for ComfyUI's launch options, not in a .bat it doesn't read; if the launcher has no such option, ask in its support channel.",
      zh: '你的 ComfyUI 由整合包的启动器启动，命令行由启动器按它自己的设置生成：请在启动器里 ComfyUI 启动选项的设置中做这个修改（{change}），不要去改它并不读取的 .bat；如果启动器没有对应选项，请到它的支持渠道询问。', ja: 'お使いの ComfyUI は統合パッケージのランチャーから起動されており、コマンドラインはランチャー自身の設定から作られます。ランチャーの ComfyUI 起動オプションの設定でこの変更を行ってください（{change}）。ランチャーが読み込まない .bat を編集しても反映されません。ランチャーに該当するオプションがなければ、そのサポート窓口で聞いてください。', ko: 'ComfyUI가 통합 패키지의 런처로 시작되는데, 런처는 자체 설정으로 명령줄을 만들어요. 그러니 이 변경({change})은 런처가 읽지 않는 .bat 파일이 아니라 런처 설정의 ComfyUI 실행 옵션에서 하세요. 런처에 그런 옵션이 없으면 런처의 지원 채널에 문의하세요.', 'zh-Hant': '你的 ComfyUI 由整合包的啟動器啟動，命令列由啟動器按它自己的設定生成：請在啟動器裡 ComfyUI 啟動選項的設定中做這個修改（{change}），不要去改它並不讀取的 .bat；如果啟動器沒有對應選項，請到它的支援渠道詢問。',
    },
    dockerLine: {
      en: "In the container's start command (Compose `command:`), or in the variable your image reads its flags from (e.g. `CLI_ARGS`), make this change ({change}), keeping your other flags, then recreate the container:",
      zh: '在容器的启动命令（Compose 的 `command:`）里，或在你的镜像读取参数的变量里（例如 `CLI_ARGS`），做这个修改（{change}），其他参数保留，然后重建容器：', ja: 'コンテナーの起動コマンド（Compose の `command:`）か、イメージがオプションを読み込む変数（例：`CLI_ARGS`）で、他のオプションは残したままこの変更を行い（{change}）、コンテナーを作り直してください：', ko: '컨테이너 시작 명령(Compose의 `command:`)이나 이미지가 옵션을 읽는 변수(예: `CLI_ARGS`)에서 이렇게 바꾸고({change}) 다른 옵션은 그대로 둔 다음, 컨테이너를 다시 만드세요:', 'zh-Hant': '在容器的啟動命令（Compose 的 `command:`）裡，或在你的映象讀取參數的變數裡（例如 `CLI_ARGS`），做這個修改（{change}），其他參數保留，然後重建容器：',
    },
    manualLine: {
      en: 'Change the command you start ComfyUI with ({change}), keeping your other flags:',
      zh: '修改你启动 ComfyUI 的命令（{change}），其他参数保留：', ja: 'ComfyUI の起動コマンドを、他のオプションは残したまま変更してください（{change}）：', ko: 'ComfyUI를 시작하는 명령을 이렇게 바꾸세요({change}). 다른 옵션은 그대로 두세요:', 'zh-Hant': '修改你啟動 ComfyUI 的命令（{change}），其他參數保留：',
    },
    addAtEnd: { en: 'add {flags} at the end', zh: '在末尾加上 {flags}', ja: '末尾に {flags} を追加', ko: '끝에 {flags} 추가', 'zh-Hant': '在末尾加上 {flags}' },
    remove: { en: 'take {flags} off', zh: '去掉 {flags}', ja: '{flags} を削除', ko: '{flags} 제거', 'zh-Hant': '去掉 {flags}' },
    envAbove: { en: 'put the `set` line above it', zh: '在它上面加一行 `set`', ja: 'その上に `set` の行を追加', ko: '그 위에 `set` 줄 추가', 'zh-Hant': '在它上面加一行 `set`' },
    envInFront: { en: 'put the variable in front of it', zh: '把环境变量写在它前面', ja: 'その前に環境変数を付ける', ko: '그 앞에 환경 변수 추가', 'zh-Hant': '把環境變數寫在它前面' },
    desktopSetting: {
      en: '{settings} → {path}: set it to {value}, then restart ComfyUI.',
      zh: '{settings} → {path}：设为 {value}，然后重启 ComfyUI。', ja: '{settings} → {path}：{value} に設定して、ComfyUI を再起動してください。', ko: '{settings} → {path}: {value} 값으로 설정한 다음 ComfyUI를 재시작하세요.', 'zh-Hant': '{settings} → {path}：設為 {value}，然後重啟 ComfyUI。',
    },
    desktopFile: {
      en: 'Server-Config has no setting for {flags}. Close ComfyUI, open {file} in the ComfyUI folder you chose when installing (by default Documents\\ComfyUI), add the entry below inside "{key}" (keep what is already there), save, and start ComfyUI again.',
      zh: 'Server-Config 里没有 {flags} 的设置项。关闭 ComfyUI，打开安装时所选 ComfyUI 文件夹（默认 Documents\\ComfyUI）里的 {file}，在 "{key}" 里加入下面这一项（原有内容保留），保存后重新启动 ComfyUI。', ja: 'サーバー設定（Server-Config）には {flags} の設定項目がありません。ComfyUI を閉じ、インストール時に選んだ ComfyUI フォルダー（既定では Documents\\ComfyUI）にある {file} を開いて、"{key}" の中に下の項目を追加し（すでにある内容は残します）、保存してから ComfyUI を再び起動してください。', ko: 'Server-Config에는 {flags} 설정이 없어요. ComfyUI를 닫고, 설치할 때 선택한 ComfyUI 폴더(기본값 Documents\\ComfyUI)에서 {file} 파일을 연 다음, "{key}" 안에 아래 항목을 추가하세요(이미 있는 내용은 그대로 두세요). 저장한 뒤 ComfyUI를 다시 시작하세요.', 'zh-Hant': 'Server-Config 裡沒有 {flags} 的設定項。關閉 ComfyUI，開啟安裝時所選 ComfyUI 資料夾（預設 Documents\\ComfyUI）裡的 {file}，在 "{key}" 里加入下面這一項（原有內容保留），儲存後重新啟動 ComfyUI。',
    },
    comfyDesktopArgs: {
      en: '{path}: {change}, then launch the installation again.',
      zh: '{path}：{change}，然后重新启动该安装。', ja: '{path}：{change}。その後、そのインストールを再度起動してください。', ko: '{path}: {change}. 그다음 설치를 다시 실행하세요.', 'zh-Hant': '{path}：{change}，然後重新啟動該安裝。',
    },
    comfyDesktopEnv: {
      en: '{path}: {name} = {value}, then launch the installation again.',
      zh: '{path}：{name} = {value}，然后重新启动该安装。', ja: '{path}：{name} = {value}。その後、そのインストールを再度起動してください。', ko: '{path}: {name} = {value} 설정 후 설치를 다시 실행하세요.', 'zh-Hant': '{path}：{name} = {value}，然後重新啟動該安裝。',
    },
    desktopEnv: {
      en: 'The Desktop app has no setting for environment variables: set {name}={value} as a Windows user environment variable (Start → “Edit environment variables for your account”), restart the app, and remove it again when you are done.',
      zh: '桌面版没有设置环境变量的选项：把 {name}={value} 设为 Windows 用户环境变量（开始 → “编辑账户的环境变量”），重启应用，用完后再删掉。', ja: 'デスクトップ版には環境変数の設定がありません。{name}={value} を Windows のユーザー環境変数として設定し（スタート →「アカウントの環境変数を編集」）、アプリを再起動してください。用が済んだら削除しておきましょう。', ko: '데스크톱 앱에는 환경 변수 설정이 없어요. {name}={value} 값을 Windows 사용자 환경 변수로 설정하고(시작 → “계정의 환경 변수 편집”), 앱을 재시작하세요. 다 쓰고 나면 다시 지우세요.', 'zh-Hant': '桌面版沒有設定環境變數的選項：把 {name}={value} 設為 Windows 使用者環境變數（開始 → 「編輯賬戶的環境變數」），重啟應用，用完後再刪掉。',
    },
    desktopEnvMac: {
      en: 'The Desktop app has no setting for environment variables: run `launchctl setenv {name} {value}` in Terminal, then quit and reopen the app. It lasts until you restart the Mac; `launchctl unsetenv {name}` removes it sooner.',
      zh: '桌面版没有设置环境变量的选项：在“终端”里运行 `launchctl setenv {name} {value}`，然后退出并重新打开应用。它在重启 Mac 之前一直有效；`launchctl unsetenv {name}` 可以提前去掉。', ja: 'デスクトップ版には環境変数の設定がありません。「ターミナル」で `launchctl setenv {name} {value}` を実行し、アプリを終了してから開き直してください。この設定は Mac を再起動するまで有効です。それより前に消すには `launchctl unsetenv {name}` を実行します。', ko: '데스크톱 앱에는 환경 변수 설정이 없어요. 터미널에서 `launchctl setenv {name} {value}` 명령을 실행한 다음, 앱을 종료했다가 다시 여세요. 이 설정은 Mac을 재시작할 때까지 유지되고, 그 전에 지우려면 `launchctl unsetenv {name}` 명령을 실행하세요.', 'zh-Hant': '桌面版沒有設定環境變數的選項：在「終端」裡執行 `launchctl setenv {name} {value}`，然後退出並重新開啟應用。它在重啟 Mac 之前一直有效；`launchctl unsetenv {name}` 可以提前去掉。',
    },
  },
  on: { en: 'on', zh: '开启', ja: 'オン', ko: '켜짐', 'zh-Hant': '開啟' },
  off: { en: 'off', zh: '关闭', ja: 'オフ', ko: '꺼짐', 'zh-Hant': '關閉' },
  /** A flag some builds lack, when the log shows no version: which builds have it, and what older ones say. */
  needs: {
    version: { en: '{flag} needs ComfyUI {version} ({month}) or later.', zh: '{flag} 需要 ComfyUI {version}（{month}）或更新的版本。', ja: '{flag} には ComfyUI {version}（{month}）以降が必要です。', ko: '{flag} 옵션은 ComfyUI {version}({month}) 이상이 필요해요.', 'zh-Hant': '{flag} 需要 ComfyUI {version}（{month}）或更新的版本。' },
    month: { en: '{flag} needs a ComfyUI build from {month} or later.', zh: '{flag} 需要 {month}或之后的 ComfyUI 版本。', ja: '{flag} には {month}以降の ComfyUI ビルドが必要です。', ko: '{flag} 옵션은 {month} 이후의 ComfyUI 빌드가 필요해요.', 'zh-Hant': '{flag} 需要 {month}或之後的 ComfyUI 版本。' },
    older: {
      en: 'If ComfyUI says `unrecognized arguments`, update ComfyUI or skip this.',
      zh: '如果 ComfyUI 提示 `unrecognized arguments`，请先更新 ComfyUI，或跳过这一步。', ja: 'ComfyUI に `unrecognized arguments` と表示されたら、ComfyUI を更新するか、このステップを飛ばしてください。', ko: 'ComfyUI가 `unrecognized arguments`라고 표시하면 ComfyUI를 업데이트하거나 이 단계를 건너뛰세요.', 'zh-Hant': '如果 ComfyUI 提示 `unrecognized arguments`，請先更新 ComfyUI，或跳過這一步。',
    },
  },
  /** What kb/flags.yaml knows of a flag argparse refused. */
  refused: {
    newerVersion: {
      en: '{flag} first came with ComfyUI {version} ({month}){yours}: update ComfyUI, or take the flag off your launch line.',
      zh: '{flag} 从 ComfyUI {version}（{month}）起才有{yours}：请更新 ComfyUI，或从启动命令里去掉这个参数。', ja: '{flag} は ComfyUI {version}（{month}）で追加されたオプションです{yours}。ComfyUI を更新するか、起動コマンドからこのオプションを外してください。', ko: '{flag} 옵션은 ComfyUI {version}({month})부터 들어갔어요{yours}. ComfyUI를 업데이트하거나 실행 명령에서 이 옵션을 빼세요.', 'zh-Hant': '{flag} 從 ComfyUI {version}（{month}）起才有{yours}：請更新 ComfyUI，或從啟動命令裡去掉這個參數。',
    },
    newerMonth: {
      en: '{flag} is only in ComfyUI builds from {month} on{yours}: update ComfyUI, or take the flag off your launch line.',
      zh: '{flag} 只有 {month}以后的 ComfyUI 版本才有{yours}：请更新 ComfyUI，或从启动命令里去掉这个参数。', ja: '{flag} は {month}以降の ComfyUI ビルドにしかありません{yours}。ComfyUI を更新するか、起動コマンドからこのオプションを外してください。', ko: '{flag} 옵션은 {month} 이후의 ComfyUI 빌드에만 있어요{yours}. ComfyUI를 업데이트하거나 실행 명령에서 이 옵션을 빼세요.', 'zh-Hant': '{flag} 只有 {month}以後的 ComfyUI 版本才有{yours}：請更新 ComfyUI，或從啟動命令裡去掉這個參數。',
    },
    yours: { en: ', and your log shows {version}', zh: '，而你的日志显示是 {version}', ja: 'が、ログではお使いのバージョンは {version} です', ko: ' (로그에 나온 버전: {version})', 'zh-Hant': '，而你的日誌顯示是 {version}' },
    removed: {
      en: '{flag} was removed from ComfyUI (builds from {month} on lack it): take it off your launch line.',
      zh: '{flag} 已从 ComfyUI 中移除（{month}以后的版本没有它）：请从启动命令里去掉它。', ja: '{flag} は ComfyUI から削除されました（{month}以降のビルドにはありません）。起動コマンドから外してください。', ko: '{flag} 옵션은 ComfyUI에서 제거됐어요({month} 이후 빌드에는 없어요). 실행 명령에서 빼세요.', 'zh-Hant': '{flag} 已從 ComfyUI 中移除（{month}以後的版本沒有它）：請從啟動命令裡去掉它。',
    },
    never: {
      en: '{flag} is not a ComfyUI flag (it belongs to AUTOMATIC1111’s WebUI): take it off your launch line.',
      zh: '{flag} 不是 ComfyUI 的参数（它属于 AUTOMATIC1111 的 WebUI）：请从启动命令里去掉它。', ja: '{flag} は ComfyUI のオプションではありません（AUTOMATIC1111 の WebUI のものです）。起動コマンドから外してください。', ko: '{flag} 옵션은 ComfyUI 옵션이 아니에요(AUTOMATIC1111 WebUI의 옵션이에요). 실행 명령에서 빼세요.', 'zh-Hant': '{flag} 不是 ComfyUI 的參數（它屬於 AUTOMATIC1111 的 WebUI）：請從啟動命令裡去掉它。',
    },
    present: {
      en: '{flag} is a ComfyUI flag that every current build has. If the `usage:` line above the error lists other flags than ComfyUI’s, another program read ComfyUI’s command line (a custom node or extension with its own argument parser): update or remove it. Otherwise check how the flag is written and its value with `python main.py -h`.',
      zh: '{flag} 是所有现行 ComfyUI 版本都有的参数。如果报错上方的 `usage:` 行列出的不是 ComfyUI 的参数，说明是别的程序读取了 ComfyUI 的命令行（带有自己参数解析器的自定义节点或扩展）：请更新或移除它。否则请用 `python main.py -h` 检查这个参数的写法和取值。', ja: '{flag} は現行のどの ComfyUI ビルドにもあるオプションです。エラーの上の `usage:` の行に ComfyUI 以外のオプションが並んでいるなら、別のプログラム（独自の引数パーサーを持つカスタムノードや拡張機能）が ComfyUI のコマンドラインを読み込んでいます。それを更新するか削除してください。そうでなければ、`python main.py -h` でオプションの書き方と値を確認してください。', ko: '{flag} 옵션은 현재 모든 ComfyUI 빌드에 있는 옵션이에요. 오류 위의 `usage:` 줄에 ComfyUI의 것이 아닌 옵션이 나열돼 있다면, 다른 프로그램(자체 인수 파서를 가진 커스텀 노드나 확장)이 ComfyUI의 명령줄을 읽은 거예요. 그 프로그램을 업데이트하거나 제거하세요. 그렇지 않다면 `python main.py -h`로 옵션의 철자와 값을 확인하세요.', 'zh-Hant': '{flag} 是所有現行 ComfyUI 版本都有的參數。如果報錯上方的 `usage:` 行列出的不是 ComfyUI 的參數，說明是別的程式讀取了 ComfyUI 的命令列（帶有自己參數解析器的自定義節點或擴充套件）：請更新或移除它。否則請用 `python main.py -h` 檢查這個參數的寫法和取值。',
    },
    unknown: {
      en: '{flag} is not a ComfyUI flag that this bot knows of: check the spelling with `python main.py -h` (portable: `.\\python_embeded\\python.exe -s ComfyUI\\main.py -h`), or take it off.',
      zh: '据本机器人所知，ComfyUI 没有 {flag} 这个参数：用 `python main.py -h`（便携版：`.\\python_embeded\\python.exe -s ComfyUI\\main.py -h`）检查拼写，或者直接去掉。', ja: '{flag} は、このボットが把握している ComfyUI のオプションではありません。`python main.py -h`（ポータブル版：`.\\python_embeded\\python.exe -s ComfyUI\\main.py -h`）で綴りを確認するか、外してください。', ko: '{flag} 옵션은 이 봇이 아는 ComfyUI 옵션이 아니에요. `python main.py -h`(포터블: `.\\python_embeded\\python.exe -s ComfyUI\\main.py -h`)로 철자를 확인하거나 옵션을 빼세요.', 'zh-Hant': '據本機器人所知，ComfyUI 沒有 {flag} 這個參數：用 `python main.py -h`（便攜版：`.\\python_embeded\\python.exe -s ComfyUI\\main.py -h`）檢查拼寫，或者直接去掉。',
    },
  },
  skippedNeedsNewer: { en: 'needs a newer ComfyUI than yours', zh: '需要比你现在更新的 ComfyUI', ja: 'お使いのものより新しい ComfyUI が必要', ko: '현재 버전보다 새로운 ComfyUI 필요', 'zh-Hant': '需要比你現在更新的 ComfyUI' },
} as const;
