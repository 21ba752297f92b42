// The platform matrix (issue 30): every entry's plan, drawn for every kind of install its failure can
// happen on, must say nothing that belongs to another platform. A fact the paste does not show never
// selects another platform's commands; what the entry itself proves (MPS, DirectML, XPU, ZLUDA) wins.
// Each forbidden item names the kb-audit-2 finding (or the source) that showed it can happen.
import { describe, expect, it } from 'vitest';
import type { Facts } from '../../src/classify/facts/types.ts';
import { compareVersions } from '../../src/classify/conditions.ts';
import type { Text } from '../../src/kb/schema.ts';
import { planSteps, type Plan } from '../../src/plan/plan.ts';
import { kb } from '../helpers/kb.ts';

type Profile = Pick<Facts, 'os' | 'install' | 'backend' | 'gpuVendor' | 'gpuName' | 'gpuBeforeTuring' | 'comfyuiVersion' | 'torchVersion' | 'launchArgs' | 'dynamicVram' | 'oom'>;

/** What the startup lines of each kind of install establish (a line the log of that install shows). */
const PROFILES: Record<string, Profile> = {
  'windows portable nvidia cu130': {
    os: 'windows', install: 'portable', backend: 'cuda', gpuVendor: 'nvidia', gpuName: 'NVIDIA GeForce RTX 4070',
    comfyuiVersion: '0.40.0', torchVersion: '2.12.0+cu130', launchArgs: ['--windows-standalone-build', '--enable-manager'], dynamicVram: true, oom: 'cuda',
  },
  'windows portable nvidia cu126 (GTX 10)': {
    os: 'windows', install: 'portable', backend: 'cuda', gpuVendor: 'nvidia', gpuName: 'NVIDIA GeForce GTX 1060 6GB', gpuBeforeTuring: true,
    comfyuiVersion: '0.40.0', torchVersion: '2.9.1+cu126', launchArgs: ['--windows-standalone-build'], oom: 'cuda',
  },
  'windows portable amd': { os: 'windows', install: 'portable', backend: 'rocm', gpuVendor: 'amd', gpuName: 'AMD Radeon RX 9070 XT', comfyuiVersion: '0.40.0', oom: 'hip' },
  'windows portable intel': { os: 'windows', install: 'portable', backend: 'xpu', gpuVendor: 'intel', gpuName: 'Intel(R) Arc(TM) A770 Graphics', comfyuiVersion: '0.40.0', oom: 'xpu' },
  // ZLUDA is Windows only, and its log often shows no OS line (kb-audit-2 N21).
  'comfyui-zluda': { backend: 'zluda', gpuVendor: 'amd', gpuName: 'AMD Radeon RX 6800 XT [ZLUDA]', comfyuiVersion: '0.3.64', torchVersion: '2.7.0+cu118', oom: 'cuda' },
  // A 秋叶 (aki) one-click bundle: the 绘世 launcher writes the command line itself (kb-audit-2 G6).
  'chinese launcher bundle': { os: 'windows', install: 'launcher', backend: 'cuda', gpuVendor: 'nvidia', comfyuiVersion: '0.3.59', oom: 'cuda' },
  'desktop (windows)': { os: 'windows', install: 'desktop', backend: 'cuda', gpuVendor: 'nvidia', comfyuiVersion: '0.18.0', dynamicVram: true, oom: 'cuda' },
  'linux pip nvidia': { os: 'linux', install: 'manual', backend: 'cuda', gpuVendor: 'nvidia', comfyuiVersion: '0.40.0', torchVersion: '2.12.0+cu130', launchArgs: [], oom: 'cuda' },
  'linux rocm': { os: 'linux', install: 'manual', backend: 'rocm', gpuVendor: 'amd', comfyuiVersion: '0.40.0', torchVersion: '2.9.0+rocm6.4', launchArgs: ['--listen', '0.0.0.0'], oom: 'hip' },
  docker: { os: 'linux', install: 'docker', backend: 'cuda', gpuVendor: 'nvidia', comfyuiVersion: '0.40.0', oom: 'cuda' },
  // A Mac log often lacks the `Device: mps` line; the MPS error proves the platform (N2-N4).
  'macos mps': { gpuVendor: 'apple', comfyuiVersion: '0.40.0', oom: 'mps' },
  directml: { os: 'windows', install: 'manual', backend: 'directml', comfyuiVersion: '0.3.64', oom: 'directml' },
};

/** A "CUDA out of memory": NVIDIA's, or an AMD card's under ZLUDA (which speaks CUDA). */
const cudaOom = (p: Profile) => p.oom === 'cuda';
/** Entries whose failure proves the platform: drawn only for the profiles it can happen on. */
const ONLY_ON: Record<string, (p: Profile) => boolean> = {
  'gpu-oom-sampling': cudaOom,
  'gpu-oom-vae': cudaOom,
  'gpu-oom-model-load': cudaOom,
  'gpu-oom-other': cudaOom,
  'expandable-segments-ignored': (p) => p.backend === 'cuda' || p.backend === 'rocm',
  'mps-oom': (p) => p.gpuVendor === 'apple',
  'directml-oom': (p) => p.backend === 'directml',
  'xpu-oom': (p) => p.backend === 'xpu',
  'amd-hip-oom': (p) => p.gpuVendor === 'amd',
  'no-kernel-image': (p) => p.gpuVendor === 'nvidia',
  'cuda-malloc-unsupported': (p) => p.gpuVendor === 'nvidia',
  'pagefile-too-small': (p) => p.os === 'windows' || p.backend === 'zluda',
  'oom-killer': (p) => p.os === 'linux' || p.install === 'docker',
};

const WINDOWS_ONLY = [/\.bat\b/, /python_embeded/, /Task Manager|任务管理器/];
const NVIDIA_ONLY = [/nvidia-smi/, /NVIDIA (?:driver|Control Panel|App)|NVIDIA 驱动|英伟达驱动/, /run_nvidia_gpu\.bat/];
/** What must never appear in a plan for each profile, with why. */
const NEVER: Record<string, { pattern: RegExp; why: string }[]> = {
  'macos mps': [
    ...[...WINDOWS_ONLY, ...NVIDIA_ONLY].map((pattern) => ({ pattern, why: 'kb-audit-2 N2/N4: Windows and NVIDIA advice to a Mac' })),
    { pattern: /\bcu1[123]\d\b|CUDA build|CUDA 版 ?(?:的 )?PyTorch|CUDA 版本的 PyTorch/, why: 'N4: no CUDA build of PyTorch on a Mac' },
    { pattern: /--fp8_e4m3fn/, why: 'N3: MPS cannot cast fp8 (issue #9263)' },
  ],
  directml: [
    ...NVIDIA_ONLY.map((pattern) => ({ pattern, why: 'N2: NVIDIA tools for a DirectML user' })),
    { pattern: /--fp8_e4m3fn/, why: 'N3: DirectML casts only fp32/fp16 (supports_cast)' },
  ],
  'windows portable intel': NVIDIA_ONLY.map((pattern) => ({ pattern, why: 'N2/N10: NVIDIA tools and launcher for an Intel Arc user' })),
  'windows portable amd': NVIDIA_ONLY.map((pattern) => ({ pattern, why: 'NVIDIA tools and launcher for an AMD user' })),
  'comfyui-zluda': [
    ...NVIDIA_ONLY.map((pattern) => ({ pattern, why: 'NVIDIA tools for a ZLUDA (AMD) user' })),
    { pattern: /COMMANDLINE_ARGS=.*--use-(?:pytorch|split)-cross-attention/, why: 'N1: ZLUDA launchers set --use-quad-cross-attention; a second attention flag stops ComfyUI' },
    { pattern: /\+rocm|ROCm 6/, why: 'N21: ZLUDA runs a CUDA build of PyTorch, not ROCm' },
  ],
  'linux pip nvidia': WINDOWS_ONLY.map((pattern) => ({ pattern, why: 'Windows advice on Linux' })),
  'linux rocm': [...WINDOWS_ONLY, ...NVIDIA_ONLY].map((pattern) => ({ pattern, why: 'Windows or NVIDIA advice on Linux ROCm' })),
  docker: WINDOWS_ONLY.map((pattern) => ({ pattern, why: 'Windows advice in a Linux container' })),
  'chinese launcher bundle': [{ pattern: /python_embeded|run_\w+_gpu\.bat|main\.py/, why: 'cf-0054: a launcher user was given the portable .bat line; the launcher writes the command line itself' }],
  'desktop (windows)': [
    { pattern: /python_embeded|run_\w+_gpu\.bat/, why: 'the portable launcher for a Desktop user' },
    { pattern: /127\.0\.0\.1:8188/, why: 'N6: the Desktop serves on 8000 (or the next free port)' },
  ],
  'windows portable nvidia cu126 (GTX 10)': [{ pattern: /\/whl\/cu1(?:2[89]|3\d)\b|cu13\d portable/, why: 'N5: cu128 and newer have no kernels for GTX 10 (ComfyUI README: the cu126 portable)' }],
};

/** Everything the plan shows, in both languages. */
function shown(plan: Plan): { prose: string; code: string[] } {
  const t = (x: Text | undefined) => (x ? `${x.en}\n${x.zh}` : '');
  const prose = plan.steps.flatMap((s) => [t(s.title), t(s.why), t(s.text), t(s.verify), ...s.notes.map(t), ...s.snippets.flatMap((x) => [t(x.label), t(x.how)])]).join('\n');
  return { prose, code: plan.steps.flatMap((s) => s.snippets.flatMap((x) => (x.code ? [x.code] : []))) };
}

const pairs = kb.entries.flatMap((entry) =>
  Object.entries(PROFILES)
    .filter(([, p]) => ONLY_ON[entry.id]?.(p) ?? true)
    .map(([name, profile]) => ({ entry, name, profile, plan: planSteps(entry, { signatures: [], flags: [], evidence: {}, ...profile } as Facts, kb) })),
);

describe('the platform matrix: every entry, drawn for every install it can happen on', () => {
  it('draws a plan for each pair', () => {
    expect(pairs.length).toBeGreaterThan(kb.entries.length * 5);
  });

  it.each(Object.keys(NEVER))('%s: nothing of another platform', (name) => {
    const found = pairs
      .filter((p) => p.name === name)
      .flatMap(({ entry, plan }) =>
        plan.steps.flatMap((step) => {
          const { prose, code } = shown({ ...plan, steps: [step] });
          const all = `${prose}\n${code.join('\n')}`;
          return NEVER[name]!.filter((n) => n.pattern.test(all)).map((n) => `${step.id} in ${entry.id}: ${all.match(n.pattern)![0]} (${n.why})`);
        }),
      );
    expect(found).toEqual([]);
  });

  it('gives no line to copy with a placeholder in it (<user>, <node-folder>: in a .bat, < is a redirection)', () => {
    const found = pairs.flatMap(({ entry, name, plan }) => shown(plan).code.filter((c) => /<[\w -]+>/.test(c)).map((c) => `${entry.id} on ${name}: ${c}`));
    expect(found).toEqual([]);
  });

  it('never puts two flags of one argparse group on one line (ComfyUI refuses to start)', () => {
    const found = pairs.flatMap(({ entry, name, plan }) =>
      shown(plan).code.flatMap((line) => {
        const groups = (line.match(/--[a-z0-9-]+/g) ?? []).map((f) => kb.flags.get(f)?.group).filter((g): g is string => !!g);
        const twice = groups.filter((g, i) => groups.indexOf(g) !== i);
        return twice.length ? [`${entry.id} on ${name}: ${line} (group ${twice[0]})`] : [];
      }),
    );
    expect(found).toEqual([]);
  });

  it('puts on a line to copy no flag newer than the build the log shows', () => {
    const found = pairs.flatMap(({ entry, name, profile, plan }) =>
      shown(plan).code.flatMap((line) =>
        (line.match(/--[a-z0-9-]+/g) ?? [])
          .filter((f) => {
            const since = kb.flags.get(f)?.since?.version;
            return since && profile.comfyuiVersion && compareVersions(profile.comfyuiVersion, since) < 0;
          })
          .map((f) => `${entry.id} on ${name} (${profile.comfyuiVersion}): ${f}`),
      ),
    );
    expect(found).toEqual([]);
  });
});
