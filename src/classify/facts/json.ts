// Facts from JSON a user attaches or pastes: a ComfyUI workflow (UI or API format) says what the
// job asks of the card; the `/system_stats` answer says what the machine is.
import type { Evidence, Facts } from './types.ts';

type JsonFacts = Partial<
  Pick<
    Facts,
    | 'os'
    | 'ramGb'
    | 'vramGb'
    | 'gpuName'
    | 'gpuVendor'
    | 'backend'
    | 'comfyuiVersion'
    | 'torchVersion'
    | 'install'
    | 'flags'
    | 'launchArgs'
    | 'workflowWidth'
    | 'workflowHeight'
    | 'workflowBatch'
    | 'workflowFrames'
    | 'workflowModels'
    | 'workflowTiledVae'
    | 'videoWorkflow'
  >
> & { evidence: Partial<Record<string, Evidence>> };

const MAX_JSON = 4 * 1024 * 1024;
const GB = 1024 ** 3;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** JSON documents in the paste: each starts on a line opening with `{` and runs to a line closing it. */
function findJson(lines: string[]): { value: unknown; line: number; end: number }[] {
  const found: { value: unknown; line: number; end: number }[] = [];
  const starts = lines.flatMap((l, i) => (l.trimStart().startsWith('{') ? [i] : [])).slice(0, 4);
  const ends = lines.flatMap((l, i) => (l.trimEnd().endsWith('}') ? [i] : []));
  for (const start of starts) {
    if (found.some((f) => f.line <= start && start <= f.end)) continue;
    for (const end of ends.filter((e) => e >= start).reverse().slice(0, 3)) {
      const text = lines.slice(start, end + 1).join('\n');
      if (text.length > MAX_JSON) continue;
      try {
        found.push({ value: JSON.parse(text), line: start, end });
        break;
      } catch {
        // not this end; try an earlier one
      }
    }
  }
  return found;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function fromSystemStats(o: Record<string, unknown>, out: JsonFacts): boolean {
  const system = o.system;
  const devices = o.devices;
  if (!isObject(system) || !Array.isArray(devices)) return false;
  const os = str(system.os);
  if (os) out.os = os === 'nt' || os === 'win32' ? 'windows' : os === 'darwin' ? 'macos' : 'linux';
  const ram = num(system.ram_total);
  if (ram) out.ramGb = round1(ram / GB);
  const comfy = str(system.comfyui_version);
  if (comfy) out.comfyuiVersion = comfy.replace(/^v/, '');
  const torch = str(system.pytorch_version);
  if (torch) out.torchVersion = torch;
  if (system.embedded_python === true) out.install = 'portable';
  if (Array.isArray(system.argv)) {
    const argv = system.argv.filter((a): a is string => typeof a === 'string');
    out.flags = argv.filter((a) => a.startsWith('--')).map((a) => a.toLowerCase());
    // argv[0] is the script (`main.py`, `ComfyUI\main.py`); the rest is the launch line's arguments.
    out.launchArgs = argv.slice(/main\.py$/i.test(argv[0] ?? '') ? 1 : 0);
  }
  const main = devices.find(isObject);
  if (main) {
    const name = str(main.name) ?? '';
    const type = str(main.type) ?? '';
    // Same format as the `Device:` line: "cuda:0 NVIDIA GeForce RTX 4090 : cudaMallocAsync".
    const gpu = name.replace(/^\w+(?::\d+)?\s/, '').replace(/\s:\s\w+$/, '').replace(/\s?\[ZLUDA\]/i, '').trim();
    if (gpu && type !== 'cpu') out.gpuName = gpu;
    const vram = num(main.vram_total);
    if (vram && type !== 'cpu' && type !== 'mps') out.vramGb = round1(vram / GB);
    out.backend = /zluda/i.test(name) ? 'zluda' : type === 'cuda' ? (/\+rocm/.test(torch ?? '') ? 'rocm' : 'cuda') : type === 'mps' ? 'mps' : type === 'xpu' ? 'xpu' : type === 'privateuseone' ? 'directml' : type === 'cpu' ? 'cpu' : undefined;
    if (!out.backend) delete out.backend;
    const vendor = /radeon|amd/i.test(gpu) ? 'amd' : /nvidia|geforce|rtx|gtx|tesla/i.test(gpu) ? 'nvidia' : /intel|arc/i.test(gpu) ? 'intel' : type === 'mps' ? 'apple' : undefined;
    if (vendor) out.gpuVendor = vendor;
  }
  return true;
}

interface WorkflowNode {
  type: string;
  inputs: Record<string, unknown>;
  widgets: unknown[];
}

/** Both formats as one list: API format {id: {class_type, inputs}}, UI format {nodes: [{type, widgets_values}]}. */
function workflowNodes(o: Record<string, unknown>): WorkflowNode[] | undefined {
  if (Array.isArray(o.nodes)) {
    return o.nodes.filter(isObject).map((n) => ({
      type: str(n.type) ?? '',
      inputs: {},
      widgets: Array.isArray(n.widgets_values) ? n.widgets_values : isObject(n.widgets_values) ? Object.values(n.widgets_values) : [],
    }));
  }
  const api = Object.values(o).filter((v): v is Record<string, unknown> => isObject(v) && typeof v.class_type === 'string');
  if (api.length && api.length >= Object.keys(o).length / 2) {
    return api.map((n) => ({ type: n.class_type as string, inputs: isObject(n.inputs) ? n.inputs : {}, widgets: [] }));
  }
  return undefined;
}

const LATENT = /^Empty.{0,40}Latent|LatentImage$|ImageToVideo|TextToVideo|^Wan.{0,30}(?:ImageToVideo|Latent)/i;
const LOADER_INPUTS = ['ckpt_name', 'unet_name', 'clip_name', 'clip_name1', 'clip_name2', 'vae_name', 'lora_name', 'model_name'];

function fromWorkflow(o: Record<string, unknown>, out: JsonFacts): boolean {
  const nodes = workflowNodes(o);
  if (!nodes?.length) return false;
  const models = new Set<string>();
  for (const n of nodes) {
    if (LATENT.test(n.type) && out.workflowWidth === undefined) {
      // API format names the inputs; the UI format keeps widget order (width, height, [length,] batch_size).
      const ints = n.widgets.filter((w): w is number => typeof w === 'number');
      const width = num(n.inputs.width) ?? ints[0];
      const height = num(n.inputs.height) ?? ints[1];
      const frames = num(n.inputs.length) ?? num(n.inputs.frames) ?? num(n.inputs.num_frames) ?? (ints.length >= 4 ? ints[2] : undefined);
      const batch = num(n.inputs.batch_size) ?? (ints.length >= 4 ? ints[3] : ints[2]);
      if (width && height && width >= 16 && height >= 16) {
        out.workflowWidth = width;
        out.workflowHeight = height;
        out.workflowBatch = batch && batch >= 1 ? batch : 1;
        if (frames && frames > 1) {
          out.workflowFrames = frames;
          out.videoWorkflow = true;
        }
      }
    }
    for (const key of LOADER_INPUTS) {
      const v = str(n.inputs[key]);
      if (v) models.add(v);
    }
    for (const w of n.widgets) if (typeof w === 'string' && /\.(safetensors|ckpt|pt|pth|gguf|bin|sft)$/i.test(w)) models.add(w);
    if (/^VAEDecodeTiled$/i.test(n.type)) out.workflowTiledVae = true;
  }
  if (out.workflowTiledVae === undefined && nodes.some((n) => /^VAEDecode$/i.test(n.type))) out.workflowTiledVae = false;
  if (models.size) out.workflowModels = [...models].slice(0, 12);
  return true;
}

export function readJsonFacts(lines: string[]): JsonFacts {
  const out: JsonFacts = { evidence: {} };
  if (!lines.some((l) => l.trimStart().startsWith('{'))) return out;
  for (const { value, line } of findJson(lines)) {
    if (!isObject(value)) continue;
    const source = fromSystemStats(value, out) ? '/system_stats' : fromWorkflow(value, out) ? 'workflow JSON' : undefined;
    if (source) out.evidence[source === '/system_stats' ? 'vramGb' : 'workflowWidth'] = { line, text: lines[line]!, source, strength: 1 };
  }
  return out;
}
