// The user's machine and install, read from ComfyUI's startup banner, paths, the "About" panel,
// launch command lines and what people write around a paste ("4060ti 16G 显存").
import { gate, type Gate, type GatedLines } from '../gates.ts';
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
  gate: Gate;
  value: (m: RegExpExecArray) => T | undefined;
  strength?: number;
}

const reading = <T>(re: RegExp, value: Reading<T>['value'], strength?: number): Reading<T> => ({ gate: gate(re), value, ...(strength === undefined ? {} : { strength }) });

/**
 * First line (from the top) where any reading matches; readings are tried in order per line.
 * Found reading by reading, each over the lines where it can match: the earliest line wins, and
 * on one line the earlier reading.
 */
function firstMatch<T>(text: GatedLines, readings: Reading<T>[], fromEnd = false): { value: T; line: number; strength: number } | undefined {
  let best: { value: T; line: number; strength: number } | undefined;
  const before = (a: number, b: number) => (fromEnd ? a > b : a < b);
  for (const r of readings) {
    const lines = text.linesOf([r.gate]);
    for (let k = 0; k < lines.length; k++) {
      const i = lines[fromEnd ? lines.length - 1 - k : k]!;
      if (best && !before(i, best.line)) break;
      const m = r.gate.re.exec(text.lines[i]!);
      const value = m ? r.value(m) : undefined;
      if (value === undefined) continue;
      best = { value, line: i, strength: r.strength ?? 1 };
      break;
    }
  }
  return best;
}

const mbToGb = (mb: string) => Math.round((Number(mb) / 1024) * 10) / 10;
const num = (s: string) => Number(s.replace(',', '.'));

const DEVICE = /^\s{0,4}Device:\s{1,2}(cuda|xpu|mps|cpu|privateuseone|npu|mlu)(?::\d{1,2})?\s{0,2}([^:\n]{0,120}?)(?:\s:\s(cudaMallocAsync|native))?\s{0,2}$/i;
/**
 * A GeForce card by its bare model number, as people write it ("4060ti 16G 显存", "GPU is 4070
 * 12GB", "3090的显卡"): only with a suffix, a memory size or a word for a graphics card after it, as
 * a bare number may be a line, a resolution or a port ("line 1080", "1080 p"). The numbers are
 * GeForce's (GTX 10 and 16, RTX 20 to 50), none of them a Radeon's; spelled out, so that only a
 * line holding one of them is tried.
 */
const GEFORCE_NUMBER = `(?:${'1050 1060 1070 1080 1630 1650 1660 2050 2060 2070 2080 3050 3060 3070 3080 3090 4050 4060 4070 4080 4090 5050 5060 5070 5080 5090'.split(' ').join('|')})`;
const BARE_GEFORCE = String.raw`${GEFORCE_NUMBER}(?:\s?(?:Ti|SUPER)\b|(?=\s{0,2}[,(]?\s{0,2}\d{1,2}\s?G(?:B|iB)?\b|\s{0,2}的?(?:显卡|GPU\b|graphics card)))`;
const BARE_GEFORCE_NAME = new RegExp(`^${GEFORCE_NUMBER}`);
/** NVIDIA's workstation cards (RTX A4000, RTX-A6000). */
const WORKSTATION = String.raw`RTX[\s-]?A\d{4}`;
/** NVIDIA's data-centre cards people rent or run, by name (A800, H800 and H20 are China's). */
const DATACENTER = '(?:A100|A800|A40|A30|A10|H100|H800|H20|L40S?|L20)';
/** AMD's APUs, whose graphics share the system's memory: Radeon 780M / 8060S, Ryzen AI Max+ 395 ("AMD 395 Max+"). */
const AMD_APU = String.raw`(?:AMD\s)?Radeon\s\d{3,4}[MS]|(?:AMD\s)?Ryzen\sAI\sMax\+?\s?\d{3}|AMD\s\d{3}\sMax\+?`;
const GPU_NAME = new RegExp(
  String.raw`\b((?:NVIDIA\s)?(?:GeForce\s)?(?:RTX|GTX)\s?\d{3,4}(?:\s?(?:Ti|SUPER|Super|Laptop GPU|Ti SUPER))?|(?:NVIDIA\s)?${WORKSTATION}|${BARE_GEFORCE}|${AMD_APU}|(?:AMD\s)?Radeon\s(?:RX\s)?\d{3,4}\s?(?:XTX|XT|GRE)?|RX\s?\d{3,4}\s?(?:XTX|XT|GRE)?|[5-9]\d{2}0\s?(?:XTX|XT|GRE)|Intel\(R\)\sArc\(TM\)\s\w{1,8}|Arc\sA\d{3}|Tesla\s[A-Z]\d{1,3}|[AHL]\d{2,3}(?:\s(?:PCIe|SXM\d?))?\s\d{2}GB|${DATACENTER}[\s-]\d{2}\s?G\b|Apple\sM\d(?:\s(?:Pro|Max|Ultra))?)\b`,
  'i',
);

const DEVICE_NAME = [reading(DEVICE, (m) => (m[2] && m[2].trim() ? m[2].replace(/\[ZLUDA\]/i, '').trim() : undefined))];
const GPU_NAMED = [reading(GPU_NAME, (m) => m[1], 0.8)];

function readGpu(text: GatedLines): { name?: string; vendor?: Facts['gpuVendor']; line?: number } {
  const device = firstMatch(text, DEVICE_NAME);
  const named = device ?? firstMatch(text, GPU_NAMED);
  if (!named) return {};
  const name = named.value;
  const vendor: Facts['gpuVendor'] = /radeon|\brx\s?\d|amd|ryzen|instinct|mi\d{2,3}|\d\s?(?:xtx|xt|gre)$/i.test(name)
    ? 'amd'
    : /intel|arc/i.test(name)
      ? 'intel'
      : /apple/i.test(name)
        ? 'apple'
        : /nvidia|geforce|rtx|gtx|tesla|quadro|\b[ahl]\d{2,3}\b/i.test(name) || BARE_GEFORCE_NAME.test(name)
          ? 'nvidia'
          : undefined;
  return { name, vendor, line: named.line };
}

/**
 * argparse's own output: the usage block (every flag the build has, so none of them is in use) and
 * its error line (flags it refused). Neither says what ComfyUI was started with.
 */
const USAGE = gate(/^\s{0,4}usage: \S{0,80}main\.py\b/i);
const ARGPARSE_ERROR = gate(/\berror: (?:unrecognized arguments|argument --)/i);

function argparseLines(text: GatedLines): Set<number> {
  const out = new Set<number>();
  if (!text.anywhere(USAGE)) {
    for (const i of text.linesOf([ARGPARSE_ERROR])) if (ARGPARSE_ERROR.re.test(text.lines[i]!)) out.add(i);
    return out;
  }
  let inUsage = false;
  text.lines.forEach((l, i) => {
    if (USAGE.re.test(l)) inUsage = true;
    else if (inUsage && !/^\s/.test(l)) inUsage = false;
    if (inUsage || ARGPARSE_ERROR.re.test(l)) out.add(i);
  });
  return out;
}

const UNRECOGNIZED = gate(/\berror: unrecognized arguments:(.{1,400})/i);
const REFUSED = gate(/\berror: argument (--[a-z0-9][a-z0-9_-]{0,40})/i);

/** Flags argparse refused: "unrecognized arguments: --x 2 --y", "argument --x: not allowed with argument --y". */
function readRejected(text: GatedLines): { flags: string[]; line: number } | undefined {
  for (const i of [...text.linesOf([UNRECOGNIZED, REFUSED])].reverse()) {
    const l = text.lines[i]!;
    const unrecognized = UNRECOGNIZED.re.exec(l);
    const argument = REFUSED.re.exec(l);
    const flags = unrecognized ? [...unrecognized[1]!.matchAll(/(?:^|\s)(--[a-z0-9][a-z0-9_-]{0,40})/gi)].map((m) => m[1]!.toLowerCase()) : argument ? [argument[1]!.toLowerCase()] : [];
    if (flags.length) return { flags: [...new Set(flags)], line: i };
  }
  return undefined;
}

const MAIN_PY = gate(/(?:^|[\s>\\/'"])main\.py(?:[ \t]+(.{0,600}))?$/);
const COMMANDLINE_ARGS = gate(/\bCOMMANDLINE_ARGS=([^"\n]{0,600})"?\s{0,2}$/);

/**
 * The arguments ComfyUI was started with, as the last launch line the paste shows them: a console
 * prompt running main.py, the error report's "Arguments:", a COMMANDLINE_ARGS setting.
 */
function readLaunchArgs(text: GatedLines, skip: ReadonlySet<number>): { args: string[]; line: number } | undefined {
  for (const i of [...text.linesOf([MAIN_PY, COMMANDLINE_ARGS])].reverse()) {
    if (skip.has(i)) continue;
    const l = text.lines[i]!;
    const m = MAIN_PY.re.exec(l) ?? COMMANDLINE_ARGS.re.exec(l);
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

const FLAG = gate(/(?:^|[\s'"[,=])(--[a-z0-9][a-z0-9_-]{1,40})\b/gi);
const VRAM_STATE = gate(/Set vram state to:\s{0,2}(LOW_VRAM|NO_VRAM|HIGH_VRAM)/g);
const NO_SMART_MEMORY = gate(/Disabling smart memory management/);

/** Launch flags: all of them on a launch command line or argv; elsewhere only ComfyUI's own. */
function readFlags(text: GatedLines, known: ReadonlySet<string>, skip: ReadonlySet<number>): { flags: string[]; line?: number } {
  const flags = new Set<string>();
  let line: number | undefined;
  for (const i of text.linesOf([FLAG])) {
    const l = text.lines[i]!;
    if (skip.has(i) || !/--[a-z]/i.test(l)) continue;
    const commandLine = /main\.py|argv|launch(?:ing)? (?:with|args|arguments)|启动参数|COMMANDLINE_ARGS|\.bat\b/i.test(l);
    for (const m of l.matchAll(FLAG.re)) {
      const flag = m[1]!.toLowerCase();
      if (known.has(flag) || commandLine) {
        flags.add(flag);
        line ??= i;
      }
    }
  }
  // ComfyUI's own log lines imply some flags even when the command line is not pasted.
  for (const i of text.linesOf([VRAM_STATE])) {
    for (const [, state] of text.lines[i]!.matchAll(VRAM_STATE.re)) {
      if (state === 'LOW_VRAM') flags.add('--lowvram');
      if (state === 'NO_VRAM') flags.add('--novram');
      if (state === 'HIGH_VRAM' && !flags.has('--gpu-only')) flags.add('--highvram');
    }
  }
  if (text.linesOf([NO_SMART_MEMORY]).some((i) => NO_SMART_MEMORY.re.test(text.lines[i]!))) flags.add('--disable-smart-memory');
  return { flags: [...flags].sort(), line };
}

const ATTENTION: Reading<NonNullable<Facts['attention']>>[] = [
  reading(/Using sage attention|Patching comfy attention to use sageattn|sageattn/i, () => 'sage'),
  reading(/Using Flash Attention/i, () => 'flash'),
  reading(/Using xformers attention(?! in VAE)/i, () => 'xformers'),
  reading(/Using pytorch (?:cross )?attention(?! in VAE)/i, () => 'pytorch'),
  reading(/Using split optimization for attention/i, () => 'split'),
  reading(/Using sub quadratic optimization for attention/i, () => 'quad'),
];

const DYNAMIC_VRAM: Reading<boolean>[] = [
  reading(/DynamicVRAM support detected and enabled|prepared for dynamic VRAM loading|comfy-aimdo inited/i, () => true),
  reading(/DynamicVRAM support disabled|Falling back to legacy ModelPatcher|Dynamic vram disabled with argument/i, () => false),
];

const APPS: Reading<string>[] = [
  reading(/stable-diffusion-webui-forge|webui[/\\]forge|\bForge\b/i, () => 'forge'),
  reading(/stable-diffusion-webui|modules[/\\]sd_models\.py|\bA1111\b|automatic1111|sd\.webui/i, () => 'a1111'),
  // The memory line under every result ("A: 9.59 GB, R: 9.71 GB, Sys: 5.9/11.98 GB (49.6%)"), AUTOMATIC1111's and Forge's alike.
  reading(/\bA: [\d.]{1,8} GB, R: [\d.]{1,8} GB, Sys: /i, () => 'webui'),
  reading(/\bFooocus\b|ldm_patched/i, () => 'fooocus'),
  reading(/invokeai/i, () => 'invokeai'),
  reading(/\bSD\.?Next\b|automatic[/\\]modules/i, () => 'sdnext'),
  reading(/Wan2GP|\bwgp\.py/i, () => 'wan2gp'),
  reading(/easydiffusion|easy-diffusion/i, () => 'easydiffusion'),
  reading(/SwarmUI/i, () => 'swarmui'),
];

const TORCH: Reading<string>[] = [
  reading(/pytorch version:?\s{0,2}(\d+\.\d+(?:\.\d+)?(?:[+.][\w.]{1,20})?)/i, (m) => m[1]),
  reading(/(?:pytorch|torch)\s{0,2}(?:版本|version)?\s{0,2}[:=]{0,2}\s{0,2}v?(\d\.\d{1,2}\.\d{1,2}\+(?:cu|rocm|xpu|cpu)[\w.]{0,10})/i, (m) => m[1]),
  reading(/^\s{0,2}(\d\.\d{1,2}\.\d{1,2}\+(?:cu|rocm|xpu)[\w.]{0,10})\s{0,2}$/i, (m) => m[1], 0.8),
  reading(/\btorch(?:==|\s)(\d\.\d{1,2}(?:\.\d{1,2})?)\b/i, (m) => m[1], 0.7),
];

const COMFY: Reading<string>[] = [
  reading(/ComfyUI version:?\s{0,2}v?(\d+\.\d+\.\d+)/i, (m) => m[1]),
  reading(/\[?ComfyUI\s{1,2}v?(\d+\.\d+\.\d+)\]?/i, (m) => m[1]),
  reading(/\*\*ComfyUI Version:\*\*\s{0,2}v?(\d+\.\d+\.\d+)/i, (m) => m[1]),
];

const BACKEND: Reading<NonNullable<Facts['backend']>>[] = [
  reading(/zluda/i, () => 'zluda'),
  reading(/directml|privateuseone|torch_directml|dml\.py/i, () => 'directml'),
  // ROCm's own libraries and AMD's gfx targets show an AMD card even where the error speaks CUDA
  // (as do ggml's ROCm builds: buffers named ROCm0, calls to hipMalloc).
  reading(/\bhip out of memory|\brocm\b|\+rocm\d|AMD arch:|[/\\]rocm|hipError|HIP error|\b(?:miopen|rocblas|hipblaslt|amdhip64)\b|\bgfx\d{3,4}[a-z]?\b|HSA_OVERRIDE_GFX_VERSION|\bamdgpu\b|\brocm(?:\d{1,2}|_host)\b|\bhipMalloc/i, () => 'rocm'),
  reading(/\bmps backend|Device:\s{1,2}mps|mps:0|Mac Version|ComfyUI\.app|PYTORCH_MPS|\bmac ?(?:studio|mini|book)\b|\bM[1-5] (?:pro|max|ultra)\b/i, () => 'mps'),
  reading(/\bxpu\b|intel_extension_for_pytorch|ipex/i, () => 'xpu'),
];

const TOTAL: Reading<readonly [number, number]>[] = [reading(/Total VRAM (\d{2,7}) MB, total RAM (\d{2,8}) MB/i, (m) => [mbToGb(m[1]!), mbToGb(m[2]!)] as const)];
const VRAM_PROSE: Reading<number>[] = [
  reading(/(\d{1,3}(?:[.,]\d)?)\s{0,1}(?:GB|G|GiB)\s{0,2}(?:of\s)?(?:VRAM|显存|video memory|GPU memory)/i, (m) => num(m[1]!), 0.7),
  reading(/(?:VRAM|显存)\s{0,2}[:：]?\s{0,2}(\d{1,3}(?:[.,]\d)?)\s{0,1}(?:GB|G|GiB)\b/i, (m) => num(m[1]!), 0.7),
  // A card with its size after it: "RTX 3060 12GB", "4090 24G", "1660Ti 6GB", "4050,6g", "A100 40G".
  reading(
    new RegExp(String.raw`(?<![\d.])(?:(?:RTX|GTX|RX)\s?\d{3,4}|${WORKSTATION}|${GEFORCE_NUMBER}|${DATACENTER})\s?(?:Ti|XT|XTX|SUPER)?\s{0,2}[,(]?\s{0,2}(\d{1,2})\s{0,1}(?:GB|G|GiB)\b`, 'i'),
    (m) => num(m[1]!),
    0.7,
  ),
];
const RAM_PROSE: Reading<number>[] = [
  reading(/(\d{1,4})\s{0,1}(?:GB|G|gbs|GiB)\s{0,2}(?:of\s)?(?:system\s)?(?:RAM|内存|memory ram)\b/i, (m) => num(m[1]!), 0.7),
  reading(/(?:RAM|内存)\s{0,2}[:：]?\s{0,2}(\d{1,4})\s{0,1}(?:GB|G)\b/i, (m) => num(m[1]!), 0.7),
  reading(/RAM limited by cgroup to (\d{2,8}) MB/i, (m) => mbToGb(m[1]!)),
];

const OS: Reading<NonNullable<Facts['os']>>[] = [
  reading(/[A-Z]:\\|\\python_embeded\\|\.bat\b|\[MSC v\.|\bWindows\b|\bos error 1455|WinError/i, () => 'windows'),
  // Python's os.name on a line of its own. Apart, as its two letters are in most lines: anchored,
  // it costs one try a line, where the alternation above would search each of them.
  reading(/^\s{0,4}nt\s{0,4}$/i, () => 'windows'),
  reading(/\/Applications\/|\/Users\/\w|Mac Version|macOS|\bmps\b|darwin/i, () => 'macos'),
  reading(/\/home\/|\/root\/|\/usr\/|\/opt\/|\/mnt\/|\/workspace\/|\blinux\b|\bUbuntu\b|journalctl|dmesg|^\s{0,4}posix\s{0,4}$/i, () => 'linux'),
];

const CUDA_WORDING = gate(/\+cu\d{2,3}|cudaMallocAsync|Device:\s{1,2}cuda|cuda out of memory|CUDA error|torch\.cuda|cuda:0/i);
const CPU_DEVICE = gate(/Device:\s{1,2}cpu\b/i);
const AMD_WORDING = gate(/\bamd\b.{0,40}(?:gpu|radeon|card)|radeon/i);
const NVIDIA_WORDING = gate(/\+cu\d{2,3}|nvidia|geforce|cudaMallocAsync/i);
const INSTALLS: { kind: NonNullable<Facts['install']>; gate: Gate }[] = [
  // The 秋叶 (aki) one-click bundles, started from the 绘世 launcher, which builds the command line itself.
  { kind: 'launcher', gate: gate(/ComfyUI-aki|sd-webui-aki|秋叶|绘世|hanamizuki/i) },
  // The error report's "Embedded Python: true" and the .bat's --windows-standalone-build are the portable build's too.
  { kind: 'portable', gate: gate(/python_embeded|ComfyUI_windows_portable|run_nvidia_gpu\.bat|run_cpu\.bat|run_amd|Embedded Python:\**\s{0,2}true|--windows-standalone-build/i) },
  { kind: 'desktop', gate: gate(/comfyui-electron|Comfy-Desktop|ComfyUI[/\\]resources[/\\]ComfyUI|ComfyUI Desktop|\.app\/Contents\/Resources\/ComfyUI|AppData\\Local\\Programs\\ComfyUI/i) },
  { kind: 'docker', gate: gate(/docker|\/comfyui-boot|container/i) },
  { kind: 'manual', gate: gate(/[/\\](?:venv|\.venv|site-packages)[/\\]/i) },
];
const VIDEO = gate(/\b(?:wan2?\.?[12]|WAN21|WAN22|hunyuan ?video|HyVideo|LTX-?V|ltxv|cogvideo|AnimateDiff|mochi|i2v|t2v|VHS_|frames?\b|video|视频)/i);

export function readEnvironment(text: GatedLines, knownFlags: ReadonlySet<string>): EnvFacts {
  const lines = text.lines;
  const evidence: EnvFacts['evidence'] = {};
  const out: EnvFacts = { flags: [], evidence };
  const note = (fact: string, at: { line: number; strength: number } | undefined, source: string) => {
    if (at) evidence[fact] = { line: at.line, text: lines[at.line]!, source, strength: at.strength };
  };

  // Versions
  const torch = firstMatch(text, TORCH);
  if (torch) out.torchVersion = torch.value;
  note('torchVersion', torch, 'pytorch version line');
  const comfy = firstMatch(text, COMFY);
  if (comfy) out.comfyuiVersion = comfy.value;
  note('comfyuiVersion', comfy, 'version line');

  // GPU, vendor, backend
  const gpu = readGpu(text);
  if (gpu.name) out.gpuName = gpu.name;
  if (gpu.vendor) out.gpuVendor = gpu.vendor;
  if (gpu.line !== undefined) note('gpuName', { line: gpu.line, strength: 1 }, 'device line');
  const backend = firstMatch(text, BACKEND);
  if (backend) {
    out.backend = backend.value;
    note('backend', backend, 'backend wording');
  } else if (text.inText(CUDA_WORDING)) {
    out.backend = 'cuda';
  } else if (text.inText(CPU_DEVICE)) out.backend = 'cpu';
  if (!out.gpuVendor) {
    if (out.backend === 'rocm' || out.backend === 'zluda' || text.inText(AMD_WORDING)) out.gpuVendor = 'amd';
    else if (out.backend === 'mps') out.gpuVendor = 'apple';
    else if (out.backend === 'xpu') out.gpuVendor = 'intel';
    else if (out.backend === 'cuda' && text.inText(NVIDIA_WORDING)) out.gpuVendor = 'nvidia';
  }

  // Memory sizes: the startup banner, then what people write.
  const total = firstMatch(text, TOTAL);
  const vramProse = firstMatch(text, VRAM_PROSE);
  const ramProse = firstMatch(text, RAM_PROSE);
  const vram = total ? { value: total.value[0], line: total.line, strength: 1 } : vramProse;
  const ram = total && !/mps|cpu/.test(out.backend ?? '') ? { value: total.value[1], line: total.line, strength: 1 } : ramProse ?? (total ? { value: total.value[1], line: total.line, strength: 1 } : undefined);
  if (vram && !(out.backend === 'mps' || out.backend === 'cpu')) out.vramGb = vram.value;
  if (ram) out.ramGb = ram.value;
  note('vramGb', vram, 'VRAM');
  note('ramGb', ram, 'RAM');

  // OS and install kind
  const os = firstMatch(text, OS);
  if (os) out.os = os.value;
  note('os', os, 'paths and platform strings');
  const install = INSTALLS.find((i) => text.inText(i.gate));
  if (install) out.install = install.kind;

  const app = firstMatch(text, APPS);
  out.app = app?.value ?? 'comfyui';

  const argparse = argparseLines(text);
  const flags = readFlags(text, knownFlags, argparse);
  out.flags = flags.flags;
  if (flags.line !== undefined) note('flags', { line: flags.line, strength: 1 }, 'launch command');
  const launch = readLaunchArgs(text, argparse);
  if (launch) {
    out.launchArgs = launch.args;
    note('launchArgs', { line: launch.line, strength: 1 }, 'launch command');
  }
  const rejected = readRejected(text);
  if (rejected) {
    out.rejectedFlags = rejected.flags;
    note('rejectedFlags', { line: rejected.line, strength: 1 }, 'argparse error');
  }

  const attention = firstMatch(text, ATTENTION, true);
  if (attention) out.attention = attention.value;
  note('attention', attention, 'attention line');
  const dyn = firstMatch(text, DYNAMIC_VRAM, true);
  if (dyn) out.dynamicVram = dyn.value;
  note('dynamicVram', dyn, 'dynamic VRAM line');

  if (text.inText(VIDEO)) out.videoWorkflow = true;
  return out;
}
