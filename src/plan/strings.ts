// Fixed texts of a tailored plan, in both languages: who a launch snippet is for and how to apply
// it, what a build needs, why a step was left out.
import type { Text } from '../kb/schema.ts';

const MONTHS_EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-06" as people say it: "June 2026", "2026 年 6 月". */
export function monthText(month: string): Text {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return { en: `${MONTHS_EN[m - 1]} ${year}`, zh: `${year} 年 ${m} 月` };
}

/** Replaces {name} placeholders in both languages at once. */
export function format(text: Text, values: Record<string, string | Text>): Text {
  const one = (s: string, lang: 'en' | 'zh') => s.replace(/\{(\w+)\}/g, (m, k: string) => {
    const v = values[k];
    return v === undefined ? m : typeof v === 'string' ? v : v[lang];
  });
  return { en: one(text.en, 'en'), zh: one(text.zh, 'zh') };
}

export const P = {
  label: {
    portableNvidia: { en: 'Windows portable ({file})', zh: 'Windows 便携版（{file}）' },
    portableEither: { en: 'Windows portable ({file}; AMD: {amdFile}, same line)', zh: 'Windows 便携版（{file}；AMD 版为 {amdFile}，同一行）' },
    portableAmd: { en: 'Windows portable for AMD ({file})', zh: 'Windows 便携版 AMD（{file}）' },
    portableIntel: { en: 'Windows portable for Intel ({file})', zh: 'Windows 便携版 Intel（{file}）' },
    zluda: { en: 'ComfyUI-Zluda ({file})', zh: 'ComfyUI-Zluda（{file}）' },
    desktop: { en: 'ComfyUI Desktop', zh: 'ComfyUI 桌面版' },
    comfyDesktop: { en: 'Comfy Desktop (the newer app that manages installations)', zh: 'Comfy Desktop（管理多个安装的新版应用）' },
    manualWindows: { en: 'Manual install (Windows, in Command Prompt)', zh: '手动安装（Windows，在命令提示符 cmd 中）' },
    manualPosix: { en: 'Manual install (terminal)', zh: '手动安装（终端）' },
    manual: { en: 'Manual install', zh: '手动安装' },
    launcher: { en: 'One-click bundle launcher (秋叶/绘世)', zh: '整合包启动器（秋叶/绘世）' },
    docker: { en: "Docker (the container's start command)", zh: 'Docker（容器的启动命令）' },
    command: { en: 'Command', zh: '命令' },
    portableCommand: { en: 'Windows portable (in the ComfyUI_windows_portable folder)', zh: 'Windows 便携版（在 ComfyUI_windows_portable 文件夹里运行）' },
    otherCommand: { en: 'Manual install (in ComfyUI’s folder, with its Python environment active)', zh: '手动安装（在 ComfyUI 文件夹里、激活它的 Python 环境后运行）' },
    portableCommandIn: { en: 'Windows portable (in {where})', zh: 'Windows 便携版（在 {where}里运行）' },
    otherCommandIn: { en: 'Manual install (in {where}, with ComfyUI’s Python environment active)', zh: '手动安装（在 {where}里、激活 ComfyUI 的 Python 环境后运行）' },
  },
  how: {
    yourLine: {
      en: 'Your launch line from the log, changed ({change}):',
      zh: '这是日志里你的启动命令，已改好（{change}）：',
    },
    yourLineHidden: {
      en: 'Your launch line from the log, changed ({change}); … is a value the log hides, keep yours there:',
      zh: '这是日志里你的启动命令，已改好（{change}）；… 是日志隐藏的取值，请保留你原来的：',
    },
    portableLine: {
      en: 'Open {file} in Notepad and change the `python_embeded` line ({change}), keeping anything else already on it. The whole line then reads:',
      zh: '用记事本打开 {file}，修改 `python_embeded` 那一行（{change}），行上原有的其他参数保留。改好后整行是：',
    },
    zludaLine: {
      en: 'In {file}, change the `set "COMMANDLINE_ARGS=..."` line ({change}); … stands for the flags already there:',
      zh: '在 {file} 里修改 `set "COMMANDLINE_ARGS=..."` 这一行（{change}）；… 代表行里原有的参数：',
    },
    launcher: {
      en: "Your ComfyUI starts from its bundle's launcher, which writes the command line from its own settings: make this change there ({change}), in the launcher's settings for ComfyUI's launch options, not in a .bat it doesn't read; if the launcher has no such option, ask in its support channel.",
      zh: '你的 ComfyUI 由整合包的启动器启动，命令行由启动器按它自己的设置生成：请在启动器里 ComfyUI 启动选项的设置中做这个修改（{change}），不要去改它并不读取的 .bat；如果启动器没有对应选项，请到它的支持渠道询问。',
    },
    dockerLine: {
      en: "In the container's start command (Compose `command:`), or in the variable your image reads its flags from (e.g. `CLI_ARGS`), make this change ({change}), keeping your other flags, then recreate the container:",
      zh: '在容器的启动命令（Compose 的 `command:`）里，或在你的镜像读取参数的变量里（例如 `CLI_ARGS`），做这个修改（{change}），其他参数保留，然后重建容器：',
    },
    manualLine: {
      en: 'Change the command you start ComfyUI with ({change}), keeping your other flags:',
      zh: '修改你启动 ComfyUI 的命令（{change}），其他参数保留：',
    },
    addAtEnd: { en: 'add {flags} at the end', zh: '在末尾加上 {flags}' },
    remove: { en: 'take {flags} off', zh: '去掉 {flags}' },
    envAbove: { en: 'put the `set` line above it', zh: '在它上面加一行 `set`' },
    envInFront: { en: 'put the variable in front of it', zh: '把环境变量写在它前面' },
    desktopSetting: {
      en: '{settings} → {path}: set it to {value}, then restart ComfyUI.',
      zh: '{settings} → {path}：设为 {value}，然后重启 ComfyUI。',
    },
    desktopFile: {
      en: 'Server-Config has no setting for {flags}. Close ComfyUI, open {file} in the ComfyUI folder you chose when installing (by default Documents\\ComfyUI), add the entry below inside "{key}" (keep what is already there), save, and start ComfyUI again.',
      zh: 'Server-Config 里没有 {flags} 的设置项。关闭 ComfyUI，打开安装时所选 ComfyUI 文件夹（默认 Documents\\ComfyUI）里的 {file}，在 "{key}" 里加入下面这一项（原有内容保留），保存后重新启动 ComfyUI。',
    },
    comfyDesktopArgs: {
      en: '{path}: {change}, then launch the installation again.',
      zh: '{path}：{change}，然后重新启动该安装。',
    },
    comfyDesktopEnv: {
      en: '{path}: {name} = {value}, then launch the installation again.',
      zh: '{path}：{name} = {value}，然后重新启动该安装。',
    },
    desktopEnv: {
      en: 'The Desktop app has no setting for environment variables: set {name}={value} as a Windows user environment variable (Start → “Edit environment variables for your account”), restart the app, and remove it again when you are done.',
      zh: '桌面版没有设置环境变量的选项：把 {name}={value} 设为 Windows 用户环境变量（开始 → “编辑账户的环境变量”），重启应用，用完后再删掉。',
    },
    desktopEnvMac: {
      en: 'The Desktop app has no setting for environment variables: run `launchctl setenv {name} {value}` in Terminal, then quit and reopen the app. It lasts until you restart the Mac; `launchctl unsetenv {name}` removes it sooner.',
      zh: '桌面版没有设置环境变量的选项：在“终端”里运行 `launchctl setenv {name} {value}`，然后退出并重新打开应用。它在重启 Mac 之前一直有效；`launchctl unsetenv {name}` 可以提前去掉。',
    },
  },
  on: { en: 'on', zh: '开启' },
  off: { en: 'off', zh: '关闭' },
  /** A flag some builds lack, when the log shows no version: which builds have it, and what older ones say. */
  needs: {
    version: { en: '{flag} needs ComfyUI {version} ({month}) or later.', zh: '{flag} 需要 ComfyUI {version}（{month}）或更新的版本。' },
    month: { en: '{flag} needs a ComfyUI build from {month} or later.', zh: '{flag} 需要 {month}或之后的 ComfyUI 版本。' },
    older: {
      en: 'If ComfyUI says `unrecognized arguments`, update ComfyUI or skip this.',
      zh: '如果 ComfyUI 提示 `unrecognized arguments`，请先更新 ComfyUI，或跳过这一步。',
    },
  },
  /** What kb/flags.yaml knows of a flag argparse refused. */
  refused: {
    newerVersion: {
      en: '{flag} first came with ComfyUI {version} ({month}){yours}: update ComfyUI, or take the flag off your launch line.',
      zh: '{flag} 从 ComfyUI {version}（{month}）起才有{yours}：请更新 ComfyUI，或从启动命令里去掉这个参数。',
    },
    newerMonth: {
      en: '{flag} is only in ComfyUI builds from {month} on{yours}: update ComfyUI, or take the flag off your launch line.',
      zh: '{flag} 只有 {month}以后的 ComfyUI 版本才有{yours}：请更新 ComfyUI，或从启动命令里去掉这个参数。',
    },
    yours: { en: ', and your log shows {version}', zh: '，而你的日志显示是 {version}' },
    removed: {
      en: '{flag} was removed from ComfyUI (builds from {month} on lack it): take it off your launch line.',
      zh: '{flag} 已从 ComfyUI 中移除（{month}以后的版本没有它）：请从启动命令里去掉它。',
    },
    never: {
      en: '{flag} is not a ComfyUI flag (it belongs to AUTOMATIC1111’s WebUI): take it off your launch line.',
      zh: '{flag} 不是 ComfyUI 的参数（它属于 AUTOMATIC1111 的 WebUI）：请从启动命令里去掉它。',
    },
    present: {
      en: '{flag} is a ComfyUI flag that every current build has. If the `usage:` line above the error lists other flags than ComfyUI’s, another program read ComfyUI’s command line (a custom node or extension with its own argument parser): update or remove it. Otherwise check how the flag is written and its value with `python main.py -h`.',
      zh: '{flag} 是所有现行 ComfyUI 版本都有的参数。如果报错上方的 `usage:` 行列出的不是 ComfyUI 的参数，说明是别的程序读取了 ComfyUI 的命令行（带有自己参数解析器的自定义节点或扩展）：请更新或移除它。否则请用 `python main.py -h` 检查这个参数的写法和取值。',
    },
    unknown: {
      en: '{flag} is not a ComfyUI flag that this bot knows of: check the spelling with `python main.py -h` (portable: `.\\python_embeded\\python.exe -s ComfyUI\\main.py -h`), or take it off.',
      zh: '据本机器人所知，ComfyUI 没有 {flag} 这个参数：用 `python main.py -h`（便携版：`.\\python_embeded\\python.exe -s ComfyUI\\main.py -h`）检查拼写，或者直接去掉。',
    },
  },
  skippedNeedsNewer: { en: 'needs a newer ComfyUI than yours', zh: '需要比你现在更新的 ComfyUI' },
} as const;
