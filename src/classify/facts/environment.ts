// The user's machine and install, read from ComfyUI's startup banner, paths, the "About" panel,
// launch command lines and what people write around a paste ("4060ti 16G 显存").
import type { Evidence, Facts } from './types.ts';

type EnvFacts = Pick<
  Facts,
  | 'backend'
  | 'gpuVendor'
  | 'gpuName'
  | 'os'
  | 'app'
  | 'install'
  | 'flags'
  | 'attention'
  | 'dynamicVram'
  | 'vramGb'
  | 'ramGb'
  | 'comfyuiVersion'
  | 'torchVersion'
  | 'videoWorkflow'
  | 'launchArgs'
  | 'rejectedFlags'
> & { evidence: Partial<Record<string, Evidence>> };

interface Reading<T> {
  re: RegExp;
  value: (m: RegExpExecArray) => T | undefined;
  strength?: number;
}

/** First line (from the top) where any reading matches; readings are tried in order per line. */
function firstMatch<T>(lines: string[], readings: Reading<T>[], fromEnd = false): { value: T; line: number; strength: number } | undefined {
  const n = lines.length;
  for (let k = 0; k < n; k++) {
    const i = fromEnd ? n - 1 - k : k;
    for (const r of readings) {
      const m = r.re.exec(lines[i]!);
      if (!m) continue;
      const value = r.value(m);
      if (value !== undefined) return { value, line: i, strength: r.strength ?? 1 };
    }
  }
  return undefined;
}

const mbToGb = (mb: string) => Math.round((Number(mb) / 1024) * 10) / 10;
const num = (s: string) => Number(s.replace(',', '.'));

const DEVICE = /^\s{0,4}Device:\s{1,2}(cuda|xpu|mps|cpu|privateuseone|npu|mlu)(?::\d{1,2})?\s{0,2}([^:\n]{0,120}?)(?:\s:\s(cudaMallocAsync|native))?\s{0,2}$/i;
const GPU_NAME =
  /\b((?:NVIDIA\s)?(?:GeForce\s)?(?:RTX|GTX)\s?\d{3,4}(?:\s?(?:Ti|SUPER|Super|Laptop GPU|Ti SUPER))?|(?:AMD\s)?Radeon\s(?:RX\s)?\d{3,4}\s?(?:XTX|XT|GRE)?|RX\s?\d{3,4}\s?(?:XTX|XT|GRE)?|[5-9]\d{2}0\s?(?:XTX|XT|GRE)|Intel\(R\)\sArc\(TM\)\s\w{1,8}|Arc\sA\d{3}|Tesla\s[A-Z]\d{1,3}|[AHL]\d{2,3}(?:\s(?:PCIe|SXM\d?))?\s\d{2}GB|Apple\sM\d(?:\s(?:Pro|Max|Ultra))?)\b/i;

function readGpu(lines: string[]): { name?: string; vendor?: Facts['gpuVendor']; line?: number } {
  const device = firstMatch(lines, [
    { re: DEVICE, value: (m) => (m[2] && m[2].trim() ? m[2].replace(/\[ZLUDA\]/i, '').trim() : undefined) },
  ]);
  const named = device ?? firstMatch(lines, [{ re: GPU_NAME, value: (m) => m[1], strength: 0.8 }]);
  if (!named) return {};
  const name = named.value;
  const vendor: Facts['gpuVendor'] = /radeon|\brx\s?\d|amd|instinct|mi\d{2,3}|\d\s?(?:xtx|xt|gre)$/i.test(name)
    ? 'amd'
    : /intel|arc/i.test(name)
      ? 'intel'
      : /apple/i.test(name)
        ? 'apple'
        : /nvidia|geforce|rtx|gtx|tesla|quadro|\b[ahl]\d{2,3}\b/i.test(name)
          ? 'nvidia'
          : undefined;
  return { name, vendor, line: named.line };
}

/**
 * argparse's own output: the usage block (every flag the build has, so none of them is in use) and
 * its error line (flags it refused). Neither says what ComfyUI was started with.
 */
function argparseLines(lines: string[]): Set<number> {
  const out = new Set<number>();
  let inUsage = false;
  lines.forEach((l, i) => {
    if (/^\s{0,4}usage: \S{0,80}main\.py\b/i.test(l)) inUsage = true;
    else if (inUsage && !/^\s/.test(l)) inUsage = false;
    if (inUsage || ARGPARSE_ERROR.test(l)) out.add(i);
  });
  return out;
}
const ARGPARSE_ERROR = /\berror: (?:unrecognized arguments|argument --)/i;

/** Flags argparse refused: "unrecognized arguments: --x 2 --y", "argument --x: not allowed with argument --y". */
function readRejected(lines: string[]): { flags: string[]; line: number } | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    const unrecognized = /\berror: unrecognized arguments:(.{1,400})/i.exec(l);
    const argument = /\berror: argument (--[a-z0-9][a-z0-9_-]{0,40})/i.exec(l);
    const flags = unrecognized ? [...unrecognized[1]!.matchAll(/(?:^|\s)(--[a-z0-9][a-z0-9_-]{0,40})/gi)].map((m) => m[1]!.toLowerCase()) : argument ? [argument[1]!.toLowerCase()] : [];
    if (flags.length) return { flags: [...new Set(flags)], line: i };
  }
  return undefined;
}

/**
 * The arguments ComfyUI was started with, as the last launch line the paste shows them: a console
 * prompt running main.py, the error report's "Arguments:", a COMMANDLINE_ARGS setting.
 */
function readLaunchArgs(lines: string[], skip: ReadonlySet<number>): { args: string[]; line: number } | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (skip.has(i)) continue;
    const l = lines[i]!;
    const m = /(?:^|[\s>\\/'"])main\.py(?:[ \t]+(.{0,600}))?$/.exec(l) ?? /\bCOMMANDLINE_ARGS=([^"\n]{0,600})"?\s{0,2}$/.exec(l);
    if (!m) continue;
    // A traceback frame names main.py too, but never with flags after it on a command line.
    if (/^\s{0,8}File "/.test(l)) continue;
    const tokens = (m[1] ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 40);
    const end = tokens.findIndex((t) => /^(?:\||&&|2?>|>>|;)/.test(t));
    const args = end < 0 ? tokens : tokens.slice(0, end);
    // A script's `main.py %COMMANDLINE_ARGS%` names where the flags are, not what they are.
    if (args.some((t) => /^%\w+%$|^\$\{?\w+\}?$/.test(t))) continue;
    return { args, line: i };
  }
  return undefined;
}

/** Launch flags: all of them on a launch command line or argv; elsewhere only ComfyUI's own. */
function readFlags(lines: string[], known: ReadonlySet<string>, skip: ReadonlySet<number>): { flags: string[]; line?: number } {
  const flags = new Set<string>();
  let line: number | undefined;
  lines.forEach((l, i) => {
    if (skip.has(i) || !/--[a-z]/i.test(l)) return;
    const commandLine = /main\.py|argv|launch(?:ing)? (?:with|args|arguments)|启动参数|COMMANDLINE_ARGS|\.bat\b/i.test(l);
    for (const m of l.matchAll(/(?:^|[\s'"[,=])(--[a-z0-9][a-z0-9_-]{1,40})\b/gi)) {
      const flag = m[1]!.toLowerCase();
      if (known.has(flag) || commandLine) {
        flags.add(flag);
        line ??= i;
      }
    }
  });
  // ComfyUI's own log lines imply some flags even when the command line is not pasted.
  lines.forEach((l) => {
    if (/Set vram state to:\s{0,2}LOW_VRAM/.test(l)) flags.add('--lowvram');
    if (/Set vram state to:\s{0,2}NO_VRAM/.test(l)) flags.add('--novram');
    if (/Set vram state to:\s{0,2}HIGH_VRAM/.test(l) && !flags.has('--gpu-only')) flags.add('--highvram');
    if (/Disabling smart memory management/.test(l)) flags.add('--disable-smart-memory');
  });
  return { flags: [...flags].sort(), line };
}

const ATTENTION: Reading<NonNullable<Facts['attention']>>[] = [
  { re: /Using sage attention|Patching comfy attention to use sageattn|sageattn/i, value: () => 'sage' },
  { re: /Using Flash Attention/i, value: () => 'flash' },
  { re: /Using xformers attention(?! in VAE)/i, value: () => 'xformers' },
  { re: /Using pytorch (?:cross )?attention(?! in VAE)/i, value: () => 'pytorch' },
  { re: /Using split optimization for attention/i, value: () => 'split' },
  { re: /Using sub quadratic optimization for attention/i, value: () => 'quad' },
];

const DYNAMIC_VRAM: Reading<boolean>[] = [
  { re: /DynamicVRAM support detected and enabled|prepared for dynamic VRAM loading|comfy-aimdo inited/i, value: () => true },
  { re: /DynamicVRAM support disabled|Falling back to legacy ModelPatcher|Dynamic vram disabled with argument/i, value: () => false },
];

const APPS: Reading<string>[] = [
  { re: /stable-diffusion-webui-forge|webui[/\\]forge|\bForge\b/i, value: () => 'forge' },
  { re: /stable-diffusion-webui|modules[/\\]sd_models\.py|\bA1111\b|automatic1111|sd\.webui/i, value: () => 'a1111' },
  { re: /\bFooocus\b|ldm_patched/i, value: () => 'fooocus' },
  { re: /invokeai/i, value: () => 'invokeai' },
  { re: /\bSD\.?Next\b|automatic[/\\]modules/i, value: () => 'sdnext' },
  { re: /Wan2GP|\bwgp\.py/i, value: () => 'wan2gp' },
  { re: /easydiffusion|easy-diffusion/i, value: () => 'easydiffusion' },
  { re: /SwarmUI/i, value: () => 'swarmui' },
];

export function readEnvironment(lines: string[], knownFlags: ReadonlySet<string>): EnvFacts {
  const evidence: EnvFacts['evidence'] = {};
  const out: EnvFacts = { flags: [], evidence };
  const note = (fact: string, at: { line: number; strength: number } | undefined, source: string) => {
    if (at) evidence[fact] = { line: at.line, text: lines[at.line]!, source, strength: at.strength };
  };
  const joined = lines.join('\n');

  // Versions
  const torch = firstMatch(lines, [
    { re: /pytorch version:?\s{0,2}(\d+\.\d+(?:\.\d+)?(?:[+.][\w.]{1,20})?)/i, value: (m) => m[1] },
    { re: /(?:pytorch|torch)\s{0,2}(?:版本|version)?\s{0,2}[:=]{0,2}\s{0,2}v?(\d\.\d{1,2}\.\d{1,2}\+(?:cu|rocm|xpu|cpu)[\w.]{0,10})/i, value: (m) => m[1] },
    { re: /^\s{0,2}(\d\.\d{1,2}\.\d{1,2}\+(?:cu|rocm|xpu)[\w.]{0,10})\s{0,2}$/i, value: (m) => m[1], strength: 0.8 },
    { re: /\btorch(?:==|\s)(\d\.\d{1,2}(?:\.\d{1,2})?)\b/i, value: (m) => m[1], strength: 0.7 },
  ]);
  if (torch) out.torchVersion = torch.value;
  note('torchVersion', torch, 'pytorch version line');
  const comfy = firstMatch(lines, [
    { re: /ComfyUI version:?\s{0,2}v?(\d+\.\d+\.\d+)/i, value: (m) => m[1] },
    { re: /\[?ComfyUI\s{1,2}v?(\d+\.\d+\.\d+)\]?/i, value: (m) => m[1] },
    { re: /\*\*ComfyUI Version:\*\*\s{0,2}v?(\d+\.\d+\.\d+)/i, value: (m) => m[1] },
  ]);
  if (comfy) out.comfyuiVersion = comfy.value;
  note('comfyuiVersion', comfy, 'version line');

  // GPU, vendor, backend
  const gpu = readGpu(lines);
  if (gpu.name) out.gpuName = gpu.name;
  if (gpu.vendor) out.gpuVendor = gpu.vendor;
  if (gpu.line !== undefined) note('gpuName', { line: gpu.line, strength: 1 }, 'device line');
  const backend = firstMatch(lines, [
    { re: /zluda/i, value: () => 'zluda' as const },
    { re: /directml|privateuseone|torch_directml|dml\.py/i, value: () => 'directml' as const },
    // ROCm's own libraries and AMD's gfx targets show an AMD card even where the error speaks CUDA.
    { re: /\bhip out of memory|\brocm\b|\+rocm\d|AMD arch:|[/\\]rocm|hipError|HIP error|\b(?:miopen|rocblas|hipblaslt|amdhip64)\b|\bgfx\d{3,4}[a-z]?\b|HSA_OVERRIDE_GFX_VERSION|\bamdgpu\b/i, value: () => 'rocm' as const },
    { re: /\bmps backend|Device:\s{1,2}mps|mps:0|Mac Version|ComfyUI\.app|PYTORCH_MPS|\bmac ?(?:studio|mini|book)\b|\bM[1-5] (?:pro|max|ultra)\b/i, value: () => 'mps' as const },
    { re: /\bxpu\b|intel_extension_for_pytorch|ipex/i, value: () => 'xpu' as const },
  ]);
  if (backend) {
    out.backend = backend.value;
    note('backend', backend, 'backend wording');
  } else if (/\+cu\d{2,3}|cudaMallocAsync|Device:\s{1,2}cuda|cuda out of memory|CUDA error|torch\.cuda|cuda:0/i.test(joined)) {
    out.backend = 'cuda';
  } else if (/Device:\s{1,2}cpu\b/i.test(joined)) out.backend = 'cpu';
  if (!out.gpuVendor) {
    if (out.backend === 'rocm' || out.backend === 'zluda' || /\bamd\b.{0,40}(?:gpu|radeon|card)|radeon/i.test(joined)) out.gpuVendor = 'amd';
    else if (out.backend === 'mps') out.gpuVendor = 'apple';
    else if (out.backend === 'xpu') out.gpuVendor = 'intel';
    else if (out.backend === 'cuda' && /\+cu\d{2,3}|nvidia|geforce|cudaMallocAsync/i.test(joined)) out.gpuVendor = 'nvidia';
  }

  // Memory sizes: the startup banner, then what people write.
  const total = firstMatch(lines, [
    { re: /Total VRAM (\d{2,7}) MB, total RAM (\d{2,8}) MB/i, value: (m) => [mbToGb(m[1]!), mbToGb(m[2]!)] as const },
  ]);
  const vramProse = firstMatch(lines, [
    { re: /(\d{1,3}(?:[.,]\d)?)\s{0,1}(?:GB|G|GiB)\s{0,2}(?:of\s)?(?:VRAM|显存|video memory|GPU memory)/i, value: (m) => num(m[1]!), strength: 0.7 },
    { re: /(?:VRAM|显存)\s{0,2}[:：]?\s{0,2}(\d{1,3}(?:[.,]\d)?)\s{0,1}(?:GB|G|GiB)\b/i, value: (m) => num(m[1]!), strength: 0.7 },
    { re: /(?:RTX|GTX|RX)\s?\d{3,4}\s?(?:Ti|XT|XTX|SUPER)?\s{0,2}\(?(\d{1,2})\s{0,1}(?:GB|G)\b/i, value: (m) => num(m[1]!), strength: 0.7 },
  ]);
  const ramProse = firstMatch(lines, [
    { re: /(\d{1,4})\s{0,1}(?:GB|G|gbs|GiB)\s{0,2}(?:of\s)?(?:system\s)?(?:RAM|内存|memory ram)\b/i, value: (m) => num(m[1]!), strength: 0.7 },
    { re: /(?:RAM|内存)\s{0,2}[:：]?\s{0,2}(\d{1,4})\s{0,1}(?:GB|G)\b/i, value: (m) => num(m[1]!), strength: 0.7 },
    { re: /RAM limited by cgroup to (\d{2,8}) MB/i, value: (m) => mbToGb(m[1]!) },
  ]);
  const vram = total ? { value: total.value[0], line: total.line, strength: 1 } : vramProse;
  const ram = total && !/mps|cpu/.test(out.backend ?? '') ? { value: total.value[1], line: total.line, strength: 1 } : ramProse ?? (total ? { value: total.value[1], line: total.line, strength: 1 } : undefined);
  if (vram && !(out.backend === 'mps' || out.backend === 'cpu')) out.vramGb = vram.value;
  if (ram) out.ramGb = ram.value;
  note('vramGb', vram, 'VRAM');
  note('ramGb', ram, 'RAM');

  // OS and install kind
  const os = firstMatch(lines, [
    { re: /[A-Z]:\\|\\python_embeded\\|\.bat\b|\[MSC v\.|\bWindows\b|\bos error 1455|WinError|^\s{0,4}nt\s{0,4}$/i, value: () => 'windows' as const },
    { re: /\/Applications\/|\/Users\/\w|Mac Version|macOS|\bmps\b|darwin/i, value: () => 'macos' as const },
    { re: /\/home\/|\/root\/|\/usr\/|\/opt\/|\/mnt\/|\/workspace\/|\blinux\b|\bUbuntu\b|journalctl|dmesg|^\s{0,4}posix\s{0,4}$/i, value: () => 'linux' as const },
  ]);
  if (os) out.os = os.value;
  note('os', os, 'paths and platform strings');
  // The error report's "Embedded Python: true" and the .bat's --windows-standalone-build are the portable build's too.
  if (/python_embeded|ComfyUI_windows_portable|run_nvidia_gpu\.bat|run_cpu\.bat|run_amd|Embedded Python:\**\s{0,2}true|--windows-standalone-build/i.test(joined)) out.install = 'portable';
  else if (/comfyui-electron|Comfy-Desktop|ComfyUI[/\\]resources[/\\]ComfyUI|ComfyUI Desktop|\.app\/Contents\/Resources\/ComfyUI|AppData\\Local\\Programs\\ComfyUI/i.test(joined)) out.install = 'desktop';
  else if (/docker|\/comfyui-boot|container/i.test(joined)) out.install = 'docker';
  else if (/[/\\](?:venv|\.venv|site-packages)[/\\]/i.test(joined)) out.install = 'manual';

  const app = firstMatch(lines, APPS);
  out.app = app?.value ?? 'comfyui';

  const argparse = argparseLines(lines);
  const flags = readFlags(lines, knownFlags, argparse);
  out.flags = flags.flags;
  if (flags.line !== undefined) note('flags', { line: flags.line, strength: 1 }, 'launch command');
  const launch = readLaunchArgs(lines, argparse);
  if (launch) {
    out.launchArgs = launch.args;
    note('launchArgs', { line: launch.line, strength: 1 }, 'launch command');
  }
  const rejected = readRejected(lines);
  if (rejected) {
    out.rejectedFlags = rejected.flags;
    note('rejectedFlags', { line: rejected.line, strength: 1 }, 'argparse error');
  }

  const attention = firstMatch(lines, ATTENTION, true);
  if (attention) out.attention = attention.value;
  note('attention', attention, 'attention line');
  const dyn = firstMatch(lines, DYNAMIC_VRAM, true);
  if (dyn) out.dynamicVram = dyn.value;
  note('dynamicVram', dyn, 'dynamic VRAM line');

  if (/\b(?:wan2?\.?[12]|WAN21|WAN22|hunyuan ?video|HyVideo|LTX-?V|ltxv|cogvideo|AnimateDiff|mochi|i2v|t2v|VHS_|frames?\b|video|视频)/i.test(joined)) out.videoWorkflow = true;
  return out;
}
