// The plan adapts to what the log says about the user's machine.
import { describe, expect, it } from 'vitest';
import { planSteps } from '../../src/plan/plan.ts';
import { editArgs } from '../../src/plan/launch.ts';
import { couldNotApply } from '../../src/plan/applied.ts';
import type { Facts } from '../../src/classify/facts/types.ts';
import { classify, kb } from '../helpers/kb.ts';

const entry = (id: string) => kb.entries.find((e) => e.id === id)!;
const facts = (f: Partial<Facts>): Facts => ({ signatures: [], flags: [], evidence: {}, oom: 'cuda', stage: 'sampling', ...f });
const ids = (f: Partial<Facts>, entryId = 'gpu-oom-model-load') => planSteps(entry(entryId), facts(f), kb).steps.map((s) => s.id);
const step = (f: Partial<Facts>, stepId: string, entryId = 'gpu-oom-sampling') =>
  planSteps(entry(entryId), facts(f), kb).steps.find((s) => s.id === stepId);

describe('tailored plans', () => {
  it('offers --lowvram only when it can still help', () => {
    expect(ids({})).toContain('lowvram');
    expect(ids({ flags: ['--lowvram'] })).not.toContain('lowvram');
    expect(ids({ dynamicVram: true })).not.toContain('lowvram');
    const plan = planSteps(entry('gpu-oom-model-load'), facts({ dynamicVram: true }), kb);
    expect(plan.skipped).toContainEqual(expect.objectContaining({ id: 'lowvram', reason: 'already-applied' }));
  });

  it('reserves more VRAM on Windows than on Linux', () => {
    const win = step({ os: 'windows' }, 'reserve-vram')!;
    const linux = step({ os: 'linux' }, 'reserve-vram')!;
    expect(win.text.en).not.toEqual(linux.text.en);
    expect(win.text.en).toMatch(/600/);
    expect(linux.text.en).toMatch(/400/);
  });

  it('gives AMD users their own attention advice', () => {
    const amd = step({ gpuVendor: 'amd', backend: 'rocm' }, 'attention-and-smart-memory', 'amd-hip-oom')!;
    const nvidia = step({ gpuVendor: 'nvidia', backend: 'cuda' }, 'attention-and-smart-memory')!;
    expect(amd.text.en).not.toEqual(nvidia.text.en);
    expect(amd.text.en).toMatch(/AMD|ROCm|ZLUDA/);
  });

  it('points low-VRAM cards at fp8/GGUF weights', () => {
    const small = step({ vramGb: 8 }, 'smaller-weights', 'gpu-oom-model-load')!;
    expect(small.text.en).toMatch(/GGUF/);
  });

  it('suggests expandable segments only when PyTorch holds a lot of reserved-but-unused memory', () => {
    expect(ids({ reservedUnallocatedGb: 3, os: 'linux' }, 'gpu-oom-sampling')).toContain('expandable-segments');
    expect(ids({ reservedUnallocatedGb: 0.1, os: 'linux' }, 'gpu-oom-sampling')).not.toContain('expandable-segments');
  });

  it('never offers a newer-only flag to a build that predates it', () => {
    const newer = [...kb.flags.values()].filter((f) => f.status === 'newer').map((f) => f.flag);
    for (const e of kb.entries) {
      const plan = planSteps(e, facts({ comfyuiVersion: '0.3.40', dynamicVram: true }), kb);
      const text = JSON.stringify(plan.steps);
      for (const flag of newer) expect(text, `${e.id} offers ${flag} to 0.3.40`).not.toContain(flag);
    }
  });

  it('keeps the seed order for a KSampler OOM, without the VAE step that cannot fix it', () => {
    const order = ids({ os: 'windows', vramGb: 8 }, 'gpu-oom-sampling');
    expect(order.indexOf('reduce-workload')).toBeLessThan(order.indexOf('reserve-vram'));
    expect(order.indexOf('reserve-vram')).toBeLessThan(order.indexOf('attention-and-smart-memory'));
    expect(order).not.toContain('tiled-vae-decode');
    // Nor where another entry meets a failure in sampling (an AMD card's).
    expect(ids({ stage: 'sampling', gpuVendor: 'amd', backend: 'rocm', oom: 'hip' }, 'amd-hip-oom')).not.toContain('tiled-vae-decode');
  });
});

describe('launch lines as the user copies them', () => {
  const snippets = (f: Partial<Facts>, stepId = 'reserve-vram', entryId = 'gpu-oom-sampling') => step(f, stepId, entryId)!.snippets;

  it('shows only the form of the install the log shows', () => {
    expect(snippets({ os: 'linux', gpuVendor: 'amd', backend: 'rocm' }, 'reserve-vram', 'amd-hip-oom').map((s) => s.label.en)).toEqual(['Manual install (terminal)']);
    expect(snippets({ os: 'windows', install: 'portable', gpuVendor: 'amd', backend: 'rocm' }, 'reserve-vram', 'amd-hip-oom').map((s) => s.label.en)).toEqual(['Windows portable for AMD (run_amd_gpu.bat)']);
    expect(snippets({ os: 'windows', install: 'desktop' }).map((s) => s.label.en)).toEqual(['ComfyUI Desktop', 'Comfy Desktop (the newer app that manages installations)']);
    expect(snippets({ os: 'windows', backend: 'zluda', gpuVendor: 'amd' }, 'reserve-vram', 'amd-hip-oom').map((s) => s.label.en)).toEqual(['ComfyUI-Zluda (comfyui-user.bat)']);
  });

  it('shows each form the log leaves possible, and no more', () => {
    expect(snippets({ os: 'windows', gpuVendor: 'nvidia' }).map((s) => s.label.en)).toEqual(['Windows portable (run_nvidia_gpu.bat)', 'Manual install (Windows, in Command Prompt)']);
    expect(snippets({ os: 'macos', gpuVendor: 'nvidia' }, 'reserve-vram').map((s) => s.label.en)).toEqual(['ComfyUI Desktop', 'Comfy Desktop (the newer app that manages installations)', 'Manual install (terminal)']);
    expect(snippets({}).map((s) => s.label.en)).toEqual(['Windows portable (run_nvidia_gpu.bat; AMD: run_amd_gpu.bat, same line)', 'Manual install']);
  });

  it('starts a portable line from the .bat as it ships, --windows-standalone-build kept', () => {
    const [portable] = snippets({ os: 'windows', install: 'portable', gpuVendor: 'nvidia' });
    expect(portable!.code).toBe('.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build --reserve-vram 2');
    expect(portable!.how!.en).toMatch(/run_nvidia_gpu\.bat.*keeping anything else already on it/);
  });

  it('starts from the user’s own flags when the log shows them, replacing the flag of the same group', () => {
    const own = { os: 'windows' as const, install: 'portable' as const, gpuVendor: 'nvidia' as const, launchArgs: ['--windows-standalone-build', '--enable-manager', '--fp32-vae'], flags: ['--enable-manager', '--fp32-vae', '--windows-standalone-build'] };
    const [portable] = step(own, 'vae-precision-or-cpu', 'gpu-oom-vae')!.snippets;
    expect(portable!.code).toBe('.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build --enable-manager --bf16-vae');
    expect(portable!.how!.en).toBe('Your launch line from the log, changed (add `--bf16-vae` at the end; take `--force-fp32` off):');
    const lowvram = step({ os: 'linux', launchArgs: ['--listen', '--lowvram', '--output-directory', '/data/out'], flags: ['--listen', '--lowvram', '--output-directory'] }, 'novram', 'gpu-oom-model-load')!;
    expect(lowvram.snippets[0]!.code).toBe('python main.py --listen --output-directory /data/out --novram');
  });

  it('gives a Desktop user the Server-Config setting, or the settings file for a flag it has no setting for', () => {
    const [desktop] = snippets({ os: 'windows', install: 'desktop' });
    expect(desktop!.how!.en).toBe('Settings (gear icon, or Ctrl+,) → Server-Config → Memory → Reserved VRAM (GB): set it to 2, then restart ComfyUI.');
    expect(desktop!.how!.zh).toContain('Memory → Reserved VRAM (GB)（预留显存）：设为 2');
    const cuda = step({ os: 'windows', install: 'desktop', gpuVendor: 'nvidia' }, 'disable-cuda-malloc', 'cuda-malloc-unsupported')!;
    expect(cuda.snippets[0]!.how!.en).toContain('CUDA → Use CUDA malloc for memory allocation: set it to Disable');
    const pinned = step({ os: 'windows', install: 'desktop', comfyuiVersion: '0.18.0' }, 'disable-pinned-memory', 'ram-oom')!;
    expect(pinned.snippets[0]!.code).toBe('"Comfy.Server.LaunchArgs": {"disable-pinned-memory":""}');
  });

  it('sets a variable the way the shell of the install does', () => {
    const linux = step({ os: 'linux', reservedUnallocatedGb: 3 }, 'expandable-segments')!;
    expect(linux.snippets.map((s) => s.code)).toEqual(['PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python main.py']);
    const fault = planSteps(entry('gpu-kernel-fault'), facts({ os: 'windows', install: 'portable', gpuVendor: 'nvidia', oom: undefined }), kb).steps.find((s) => s.id === 'report-gpu-fault')!;
    expect(fault.snippets[0]!.code).toBe('set CUDA_LAUNCH_BLOCKING=1\n.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build');
  });
});

describe('versions', () => {
  it('leaves out a step whose flag the user’s build lacks, and says why', () => {
    const plan = planSteps(entry('gpu-oom-sampling'), facts({ dynamicVram: true, comfyuiVersion: '0.18.0' }), kb);
    expect(plan.skipped).toContainEqual(expect.objectContaining({ id: 'dynamic-vram-headroom', reason: 'needs-newer-build' }));
    expect(plan.steps.map((s) => s.id)).toContain('disable-dynamic-vram-diagnostic');
  });

  it('offers it from its first version on, without a note', () => {
    const headroom = step({ dynamicVram: true, comfyuiVersion: '0.25.0' }, 'dynamic-vram-headroom')!;
    expect(headroom.notes).toEqual([]);
  });

  it('says which builds have it, and what older ones print, when the log shows no version', () => {
    const headroom = step({ dynamicVram: true }, 'dynamic-vram-headroom')!;
    expect(headroom.notes.map(({ en, zh }) => ({ en, zh }))).toEqual([
      {
        en: '`--vram-headroom` needs ComfyUI 0.25.0 (June 2026) or later. If ComfyUI says `unrecognized arguments`, update ComfyUI or skip this.',
        zh: '`--vram-headroom` 需要 ComfyUI 0.25.0（2026 年 6 月）或更新的版本。如果 ComfyUI 提示 `unrecognized arguments`，请先更新 ComfyUI，或跳过这一步。',
      },
    ]);
  });
});

describe('advice that did not apply, pasted as a new log', () => {
  const refused = (line: string) => classify(`C:\\ComfyUI_windows_portable>.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build\nusage: main.py [-h] [--listen [IP]]\n${line}\n\nC:\\ComfyUI_windows_portable>pause\nPress any key to continue . . .`);

  it('reads an argparse refusal as a refused flag, not a silent crash, and says which builds have it', () => {
    const d = refused('main.py: error: unrecognized arguments: --vram-headroom 2');
    expect(d.entry.id).toBe('launch-flag-rejected');
    const [fix] = planSteps(d.entry, d.facts, kb).steps;
    expect(fix!.notes.map((n) => n.en)).toEqual(['`--vram-headroom` first came with ComfyUI 0.25.0 (June 2026): update ComfyUI, or take the flag off your launch line.']);
    expect(fix!.snippets[0]!.code).toBe('.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build');
  });

  it('explains removed flags, flags of other apps and unknown ones', () => {
    const notes = (line: string) => {
      const d = refused(line);
      return planSteps(d.entry, d.facts, kb).steps[0]!.notes.map((n) => n.en);
    };
    expect(notes('main.py: error: unrecognized arguments: --normalvram')[0]).toMatch(/was removed from ComfyUI \(builds from May 2026 on lack it\)/);
    expect(notes('main.py: error: unrecognized arguments: --medvram')[0]).toMatch(/not a ComfyUI flag \(it belongs to AUTOMATIC1111/);
    expect(notes('main.py: error: unrecognized arguments: --listen 0.0.0.0')[0]).toMatch(/every current build has.*custom node or extension/);
    expect(notes('main.py: error: unrecognized arguments: --vram-headrom')[0]).toMatch(/not a ComfyUI flag that this bot knows of/);
  });

  it('reads PyTorch’s expandable_segments warning on its own as advice PyTorch ignored, and an OOM beside it as the OOM', () => {
    const warning = 'C:\\ComfyUI\\venv\\Lib\\site-packages\\torch\\nn\\modules\\module.py:1326: UserWarning: expandable_segments not supported on this platform (Triggered internally at C:\\actions-runner\\_work\\pytorch\\pytorch\\c10/cuda/CUDAAllocatorConfig.h:28.)';
    expect(classify(warning).entry.id).toBe('expandable-segments-ignored');
    expect(classify(`${warning}\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB`).category).not.toBe('not_oom');
  });

  it('knows when the step on screen did not take effect', () => {
    const f = (p: Partial<Facts>) => facts({ oom: undefined, stage: undefined, ...p });
    expect(couldNotApply('dynamic-vram-headroom', f({ rejectedFlags: ['--vram-headroom'] }), kb)).toBe(true);
    expect(couldNotApply('expandable-segments', f({ signatures: ['expandable_segments_unsupported'] }), kb)).toBe(true);
    expect(couldNotApply('lowvram', f({ dynamicVram: true, flags: ['--lowvram'] }), kb)).toBe(true);
    // The log's launch line lacks the flag the step adds: the change never reached ComfyUI.
    expect(couldNotApply('reserve-vram', f({ launchArgs: ['--windows-standalone-build'], flags: ['--windows-standalone-build'] }), kb)).toBe(true);
    expect(couldNotApply('reserve-vram', f({ launchArgs: ['--reserve-vram', '2'], flags: ['--reserve-vram'] }), kb)).toBe(false);
    expect(couldNotApply('reserve-vram', f({}), kb)).toBe(false);
    expect(couldNotApply('reduce-workload', f({ rejectedFlags: ['--x'] }), kb)).toBe(false);
  });
});

describe('editing a launch line', () => {
  it('takes a flag off with as many values as it takes, and keeps what it does not know', () => {
    const change = { add: ['--use-split-cross-attention'], remove: ['--fast', '--reserve-vram'] };
    expect(editArgs(['--fast', 'fp16_accumulation', 'autotune', '--reserve-vram', '2', '--use-quad-cross-attention', '--my-node-flag', 'x'], change, kb.flags)).toEqual([
      '--my-node-flag',
      'x',
      '--use-split-cross-attention',
    ]);
  });
});

describe('the CPU and the MPS cap, where the GPU cannot', () => {
  it('moves a DirectML user to the CPU by taking --directml off, since ComfyUI prefers DirectML when both are given', () => {
    const cpu = step({ oom: 'directml', backend: 'directml', os: 'windows', install: 'manual', launchArgs: ['--directml', '--lowvram'], flags: ['--directml', '--lowvram'] }, 'run-on-cpu', 'directml-oom')!;
    const line = cpu.snippets.map((s) => s.code ?? '').join('\n');
    expect(line).toContain('--cpu');
    expect(line).not.toContain('--directml');
    expect(step({ oom: 'directml', backend: 'directml', flags: ['--cpu'] }, 'run-on-cpu', 'directml-oom')).toBeUndefined();
  });

  it('sets the MPS variable as a Mac sets it: launchctl for the Desktop app, in front of the command in a shell', () => {
    const cap = step({ oom: 'mps', backend: 'mps', os: 'macos', gpuVendor: 'apple' }, 'mps-watermark', 'mps-oom')!;
    const how = cap.snippets.map((s) => `${s.how?.en ?? ''} ${s.code ?? ''}`).join('\n');
    expect(how).toContain('launchctl setenv PYTORCH_MPS_HIGH_WATERMARK_RATIO 0.0');
    expect(how).toContain('PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 python main.py');
    expect(how).not.toMatch(/Windows|`set`/);
    expect(step({ oom: 'cuda', backend: 'cuda' }, 'mps-watermark', 'mps-oom')).toBeUndefined();
  });
});

describe('checking what else holds the GPU, with the tool the card has', () => {
  it('sends only NVIDIA users to nvidia-smi: not a Mac whose log shows no OS line, DirectML, Intel or AMD (kb-audit-2 N2)', () => {
    const said = (f: Partial<Facts>, entryId: string) => {
      const s = step(f, 'close-other-gpu-apps', entryId)!;
      return [s.text.en, ...s.snippets.map((x) => x.code ?? '')].join('\n');
    };
    expect(said({ oom: 'mps' }, 'mps-oom')).toMatch(/Activity Monitor/);
    expect(said({ oom: 'directml', backend: 'directml' }, 'directml-oom')).toMatch(/Task Manager/);
    expect(said({ oom: 'xpu' }, 'xpu-oom')).toMatch(/Task Manager/);
    expect(said({ oom: 'hip' }, 'amd-hip-oom')).toMatch(/rocm-smi/);
    for (const [f, e] of [[{ oom: 'mps' }, 'mps-oom'], [{ oom: 'directml', backend: 'directml' }, 'directml-oom'], [{ oom: 'xpu' }, 'xpu-oom'], [{ oom: 'hip' }, 'amd-hip-oom']] as const) {
      expect(said(f, e), e).not.toMatch(/nvidia-smi/);
    }
    expect(said({ oom: 'cuda' }, 'gpu-oom-sampling')).toMatch(/nvidia-smi/);
  });

  it('names only the tool of the OS the log shows, in the step and in how to check it', () => {
    const rocm = step({ oom: 'hip', os: 'linux', backend: 'rocm' }, 'close-other-gpu-apps', 'amd-hip-oom')!;
    expect([rocm.text.en, rocm.verify.en].join('\n')).toMatch(/rocm-smi/);
    expect([rocm.text.en, rocm.verify.en, rocm.text.zh, rocm.verify.zh].join('\n')).not.toMatch(/Task Manager|任务管理器/);
    const linux = step({ oom: 'cuda', os: 'linux' }, 'close-other-gpu-apps', 'gpu-oom-sampling')!;
    expect(linux.verify.en).not.toMatch(/Task Manager|Activity Monitor|rocm-smi/);
    const mac = step({ oom: 'mps' }, 'close-other-gpu-apps', 'mps-oom')!;
    expect(mac.verify.en).toMatch(/Activity Monitor/);
  });

  it('takes a Mac for a Mac when the MPS error says so, though no OS line does: no page file, no .bat', () => {
    const kinds = planSteps(kb.entries.find((e) => e.id === 'no-error-found')!, { signatures: [], flags: [], evidence: {}, oom: 'mps', backend: 'mps' } as Facts, kb);
    expect(kinds.steps.map((s) => s.id)).not.toContain('pagefile-increase');
    expect(kinds.steps.flatMap((s) => s.snippets.map((x) => x.code ?? '')).join('\n')).not.toMatch(/\.bat|python_embeded/);
  });
});

describe('smaller weights a card can use', () => {
  it('offers no fp8 to a Mac whose log shows no Device line, nor under DirectML (kb-audit-2 N3)', () => {
    for (const [f, e] of [[{ oom: 'mps' }, 'mps-oom'], [{ oom: 'directml', backend: 'directml' }, 'directml-oom']] as const) {
      const s = step(f, 'smaller-weights', e)!;
      expect(s.snippets.map((x) => x.code ?? '').join(' '), e).not.toMatch(/fp8/);
      expect(s.text.en, e).toMatch(/GGUF/);
      expect(s.text.en, e).toMatch(/Skip fp8/);
    }
    expect(step({ oom: 'cuda', vramGb: 8 }, 'smaller-weights', 'gpu-oom-model-load')!.snippets.map((x) => x.code ?? '').join(' ')).toMatch(/--fp8_e4m3fn-unet/);
  });
});

describe('a PyTorch build the card can run', () => {
  it('sends RTX 20 and newer to a current CUDA build and GTX 10 cards and older to the cu126 build, not to the latest portable (kb-audit-2 N5, N18)', () => {
    const s = step({ oom: undefined, gpuVendor: 'nvidia', backend: 'cuda' }, 'update-pytorch-for-gpu', 'no-kernel-image')!;
    expect(s.text.en).toMatch(/CUDA 13\.0, for RTX 20 and newer; RTX 50 cards need at least\s+CUDA 12\.8/);
    expect(s.text.en).toMatch(/GTX 10 series card or older, use the cu126 build/);
    expect(s.text.en).toMatch(/ComfyUI_windows_portable_nvidia_cu126\.7z/);
    // A card the log names as older than RTX 20 gets only the cu126 build.
    const pascal = step({ oom: undefined, gpuVendor: 'nvidia', backend: 'cuda', gpuName: 'NVIDIA GeForce GTX 1060 6GB', gpuBeforeTuring: true }, 'update-pytorch-for-gpu', 'no-kernel-image')!;
    expect(pascal.snippets.map((x) => x.code).join('\n')).toMatch(/whl\/cu126/);
    expect(pascal.snippets.map((x) => x.code).join('\n')).not.toMatch(/cu13\d|cu128/);
    expect(classify('Device: cuda:0 NVIDIA GeForce GTX 1080 Ti : cudaMallocAsync\nCUDA error: no kernel image is available for execution on the device').facts.gpuBeforeTuring).toBe(true);
    expect(classify('Device: cuda:0 NVIDIA GeForce RTX 2060 : cudaMallocAsync\nCUDA error: no kernel image is available for execution on the device').facts.gpuBeforeTuring).toBeUndefined();
  });
});

describe("the Desktop app's own port", () => {
  it('sends /free and /system_stats to port 8000 for a Desktop install, 8188 for the rest (kb-audit-2 N6)', () => {
    const code = (f: Partial<Facts>, id: string) => step(f, id, 'gpu-oom-other')!.snippets.map((s) => s.code ?? '').join('\n');
    for (const id of ['free-memory-between-runs', 'share-full-log']) {
      expect(code({ install: 'desktop', os: 'windows' }, id), id).toMatch(/127\.0\.0\.1:8000\//);
      expect(code({ install: 'desktop', os: 'windows' }, id), id).not.toMatch(/8188/);
      expect(code({ install: 'portable', os: 'windows' }, id), id).toMatch(/127\.0\.0\.1:8188\//);
    }
  });
});

describe('the video wrappers, which manage their own memory (kb-audit-2 G3)', () => {
  const sampling = kb.entries.find((e) => e.id === 'gpu-oom-sampling')!;
  const ids = (f: Partial<Facts>) => planSteps(sampling, { signatures: [], flags: [], evidence: {}, oom: 'cuda', stage: 'sampling', ...f } as Facts, kb).steps.map((s) => s.id);

  it("offers WanVideoWrapper's block swap second when its sampler ran out, and never when the node is another or unknown", () => {
    expect(ids({ node: 'WanVideoSampler' }).slice(0, 2)).toEqual(['reduce-workload', 'video-wrapper-block-swap']);
    expect(ids({ node: 'KSampler' })).not.toContain('video-wrapper-block-swap');
    expect(ids({})).not.toContain('video-wrapper-block-swap');
  });

  it("tells a wrapper decode failure to tile in the wrapper's own decode node", () => {
    const vae = kb.entries.find((e) => e.id === 'gpu-oom-vae')!;
    const plan = planSteps(vae, { signatures: [], flags: [], evidence: {}, oom: 'cuda', stage: 'vae_decode', node: 'WanVideoDecode' } as Facts, kb);
    expect(plan.steps.find((s) => s.id === 'video-wrapper-block-swap')!.text.en).toMatch(/enable_vae_tiling.*tile_x and tile_y/);
  });
});

describe('Nunchaku, whose weights are 4-bit already (kb-audit-2 G4, cf-0054)', () => {
  it("sends a Nunchaku loader's OOM to the loader's own offload, not to fp8 files or flags", () => {
    const load = kb.entries.find((e) => e.id === 'gpu-oom-model-load')!;
    const plan = planSteps(load, { signatures: [], flags: [], evidence: {}, oom: 'cuda', stage: 'model_load', node: 'NunchakuQwenImageDiTLoader' } as Facts, kb);
    const smaller = plan.steps.find((s) => s.id === 'smaller-weights')!;
    expect(smaller.text.en).toMatch(/cpu_offload to enable/);
    expect(smaller.snippets.map((x) => x.code ?? '').join('\n')).not.toMatch(/--fp8/);
  });
});

describe('a line to copy never holds a redaction placeholder (issue 30: in a .bat, < is a redirection)', () => {
  it("puts … where the stored log's value was redacted, and says to keep the user's own there", () => {
    const sampling = kb.entries.find((e) => e.id === 'gpu-oom-sampling')!;
    const facts = { signatures: [], flags: [], evidence: {}, oom: 'cuda', os: 'windows', install: 'portable', gpuVendor: 'nvidia', comfyuiVersion: '0.3.60',
      launchArgs: ['--windows-standalone-build', '--output-directory', 'C:\\Users\\<user>\\Pictures\\comfy'] } as Facts;
    const reserve = planSteps(sampling, facts, kb).steps.find((s) => s.id === 'reserve-vram')!;
    expect(reserve.snippets[0]!.code).toBe('.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build --output-directory … --reserve-vram 2');
    expect(reserve.snippets[0]!.how!.en).toMatch(/… is a value the log hides, keep yours there/);
  });
});

describe('the size of the model the log shows (kb/models.yaml, issue 30 item 5)', () => {
  it('reads the family from the model ComfyUI loaded, not from its text encoder or VAE', () => {
    expect(classify('Requested to load Flux2TEModel_\nRequested to load Flux2\ntorch.OutOfMemoryError: CUDA out of memory.').facts.modelFamily).toBe('flux2');
    expect(classify('Requested to load WAN21\ntorch.OutOfMemoryError: CUDA out of memory.').facts.modelFamily).toBe('wan');
    expect(classify('Requested to load SDXL\ntorch.OutOfMemoryError: CUDA out of memory.').facts.modelFamily).toBeUndefined();
  });

  it('quotes it beside the steps about the weights, in both languages', () => {
    const d = classify('Requested to load QwenImage\nloaded partially 9000 MB\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB');
    const smaller = planSteps(d.entry, d.facts, kb).steps.find((s) => s.id === 'smaller-weights')!;
    expect(smaller.notes.map((n) => n.en)).toContainEqual(expect.stringMatching(/Qwen-Image has 20B parameters: about 41 GB in bf16 and 20 GB in fp8/));
    expect(smaller.notes.map((n) => n.zh)).toContainEqual(expect.stringMatching(/Qwen-Image 有 20B 参数/));
  });
});

describe("the portable's own launcher, as the user's build has it (kb-audit-2 N10, N13)", () => {
  const sampling = kb.entries.find((e) => e.id === 'gpu-oom-sampling')!;
  const line = (f: Partial<Facts>, entry = sampling) =>
    planSteps(entry, { signatures: [], flags: [], evidence: {}, os: 'windows', install: 'portable', ...f } as Facts, kb).steps.find((s) => s.snippets.some((x) => x.code?.includes('main.py')))!.snippets[0]!;

  it('keeps --enable-manager on a 0.4.0-or-newer portable line, and never gives it to an older or unknown build', () => {
    expect(line({ oom: 'cuda', gpuVendor: 'nvidia', comfyuiVersion: '0.40.0' }).code).toMatch(/--windows-standalone-build --enable-manager --/);
    expect(line({ oom: 'cuda', gpuVendor: 'nvidia', comfyuiVersion: '0.3.60' }).code).not.toMatch(/--enable-manager/);
    expect(line({ oom: 'cuda', gpuVendor: 'nvidia' }).code).not.toMatch(/--enable-manager/);
  });

  it('edits run_intel_gpu.bat for an Intel Arc card, not run_nvidia_gpu.bat', () => {
    const xpu = kb.entries.find((e) => e.id === 'xpu-oom')!;
    const snippet = line({ oom: 'xpu', backend: 'xpu', gpuVendor: 'intel' }, xpu);
    expect(snippet.label.en).toBe('Windows portable for Intel (run_intel_gpu.bat)');
  });
});

describe('a command run from a custom node\'s folder (kb-audit-2 N20)', () => {
  const install = (f: Partial<Facts>) => planSteps(entry('missing-nodes'), { signatures: [], flags: [], evidence: {}, ...f } as Facts, kb).steps.find((s) => s.id === 'install-missing-nodes')!;

  it('is labelled with that folder, not the install\'s, in both languages', () => {
    const [portable] = install({ os: 'windows', install: 'portable' }).snippets;
    expect(portable!.code).toMatch(/^\.\.\\\.\.\\\.\.\\python_embeded\\python\.exe /);
    expect(portable!.label.en).toBe("Windows portable (in the node's own folder, inside ComfyUI\\custom_nodes)");
    expect(portable!.label.zh).toContain('custom_nodes');
    expect(portable!.label.en).not.toMatch(/ComfyUI_windows_portable/);
    const [manual] = install({ os: 'linux', install: 'manual' }).snippets;
    expect(manual!.label.en).toMatch(/^Manual install \(in the node's own folder, .*with ComfyUI’s Python environment active\)$/);
  });

  it('leaves every other command labelled with the install\'s own folder', () => {
    const free = planSteps(entry('gpu-oom-sampling'), facts({ os: 'windows', install: 'portable' }), kb).steps.find((s) => s.id === 'free-memory-between-runs')!;
    expect(free.snippets.at(-1)!.label.en).toBe('Windows portable (in the ComfyUI_windows_portable folder)');
  });
});

describe('a legacy Desktop refusing --normalvram (kb-audit-2 N17)', () => {
  it('is told to set Server-Config back to auto, and the newer app to take the flag off', () => {
    const d = classify('ComfyUI version: 0.24.0\n@comfyorg/comfyui-electron 0.6.1\nmain.py: error: unrecognized arguments: --normalvram');
    const fix = planSteps(d.entry, d.facts, kb).steps.find((s) => s.id === 'fix-rejected-flag')!;
    expect(fix.snippets.map((x) => x.how?.en ?? '')).toEqual([
      expect.stringMatching(/Server-Config → Memory → VRAM management mode: set it to auto/),
      expect.stringMatching(/Startup Arguments: take `--normalvram` off/),
    ]);
  });
});

describe('an AMD OOM starts where the log says it ran out (kb-audit-2 N22)', () => {
  const amd = kb.entries.find((e) => e.id === 'amd-hip-oom')!;
  const first = (stage: Facts['stage']) => planSteps(amd, { signatures: [], flags: [], evidence: {}, oom: 'hip', gpuVendor: 'amd', stage } as Facts, kb).steps[0]!.id;
  it('decodes in tiles first for a VAE failure, shrinks the weights first for a load, and shrinks the job for sampling', () => {
    expect(first('vae_decode')).toBe('tiled-vae-decode');
    expect(first('text_encoder')).toBe('text-encoder-smaller');
    expect(first('model_load')).toBe('text-encoder-smaller');
    expect(first('sampling')).toBe('reduce-workload');
  });
});

describe('a container (kb-audit-2 G6)', () => {
  it("puts the flags on the container's start command or its image's variable, not on a terminal line", () => {
    const sampling = kb.entries.find((e) => e.id === 'gpu-oom-sampling')!;
    const plan = planSteps(sampling, { signatures: [], flags: [], evidence: {}, oom: 'cuda', os: 'linux', install: 'docker', gpuVendor: 'nvidia', comfyuiVersion: '0.40.0' } as Facts, kb);
    const reserve = plan.steps.find((s) => s.id === 'reserve-vram')!;
    expect(reserve.snippets).toEqual([
      expect.objectContaining({ label: expect.objectContaining({ en: "Docker (the container's start command)" }), code: 'python main.py --reserve-vram 1' }),
    ]);
    expect(reserve.snippets[0]!.how!.en).toMatch(/CLI_ARGS.*recreate the container/);
  });
});

describe('a one-click bundle started from its launcher (秋叶/绘世; kb-audit-2 G6, cf-0054)', () => {
  it('is read from the bundle\'s paths, and told to set the flag in the launcher, with no .bat line to edit', () => {
    const d = classify('File "D:\\ComfyUI-aki-v1.6\\ComfyUI\\execution.py", line 1, in execute\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB');
    expect(d.facts.install).toBe('launcher');
    const reserve = planSteps(d.entry, d.facts, kb).steps.find((s) => s.snippets.some((x) => x.label.en.startsWith('One-click')))!;
    expect(reserve.snippets).toHaveLength(1);
    expect(reserve.snippets[0]!.code).toBeUndefined();
    expect(reserve.snippets[0]!.how!.zh).toMatch(/请在启动器里/);
  });
});
