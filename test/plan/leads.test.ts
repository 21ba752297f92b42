// What the paste says besides the error moves the fix it points at to the front (kb/leads.yaml):
// "it worked before the update" leads with updating or rolling back, a few MB that do not fit on a
// full card with a restart, a small RAM allocation on Windows with the page file, comfy-aimdo's
// host-buffer failure with --disable-pinned-memory. Errors the bot does not know still get a plan.
import { describe, expect, it } from 'vitest';
import { planSteps } from '../../src/plan/plan.ts';
import { classify, kb } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';

const plan = (text: string) => {
  const d = classify(text);
  return { entry: d.entry.id, steps: planSteps(d.entry, d.facts, kb).steps.map((s) => s.id) };
};

const KSAMPLER_OOM = [
  'Error occurred when executing KSampler:',
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 12.00 GiB of which 900.00 MiB is free.',
].join('\n');

describe('signals in the paste lead the plan', () => {
  it.each([
    ['after updating ComfyUI today I get this:'],
    ['It was working fine until yesterday.'],
    ['This workflow used to work on the same card.'],
    ['更新后就一直爆显存'],
    ['之前可以正常运行，最近突然开始爆显存'],
    ['アップデート後にエラーが出ます'],
    ['Depois de atualizar o ComfyUI aparece:'],
  ])('"%s" puts updating or rolling back first', (said) => {
    const { entry, steps } = plan(`${said}\n${KSAMPLER_OOM}`);
    expect(entry).toBe('gpu-oom-sampling');
    expect(steps[0]).toBe('update-or-rollback');
  });

  it("keeps the usual order for the same OOM said without it, and for ComfyUI's own 'If the workflow worked before' tip", () => {
    const usual = plan(KSAMPLER_OOM).steps;
    expect(usual[0]).not.toBe('update-or-rollback');
    const tip = 'This error means you ran out of memory on your GPU.\n\nTIPS: If the workflow worked before you might have accidentally set the batch_size to a large number.';
    expect(plan(`${KSAMPLER_OOM}\n${tip}`).steps).toEqual(usual);
  });

  it('leads with a restart when later runs fail after the first ones worked', () => {
    expect(plan(`The first run works, the second run fails every time.\n${KSAMPLER_OOM}`).steps[0]).toBe('free-memory-between-runs');
  });

  it('leads with a restart when a request of a few MB does not fit on a full card', () => {
    const full = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of 8.00 GiB of which 0 bytes is free.';
    expect(plan(full).steps[0]).toBe('free-memory-between-runs');
    const roomy = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB. GPU 0 has a total capacity of 8.00 GiB of which 1.00 GiB is free.';
    expect(plan(roomy).steps[0]).not.toBe('free-memory-between-runs');
  });

  it('leads with the page file for a small RAM allocation on Windows, and not on Linux', () => {
    const windows = 'D:\\ComfyUI_windows_portable>.\\python_embeded\\python.exe -s ComfyUI\\main.py\nRuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to allocate 52428800 bytes.';
    expect(plan(windows)).toEqual({ entry: 'ram-oom', steps: expect.arrayContaining(['pagefile-increase']) });
    expect(plan(windows).steps[0]).toBe('pagefile-increase');
    const linux = 'RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to allocate 52428800 bytes.\n/home/user/ComfyUI/venv/bin/python main.py';
    expect(plan(linux).steps[0]).not.toBe('pagefile-increase');
  });

  it("answers comfy-aimdo's host-buffer failure with --disable-pinned-memory, also where a CUDA OOM follows it", () => {
    // ComfyUI's Error Report as the frontend copies it (h15-0013), and a chained OOM (h26-0007).
    // The known issue (kb/known-issues.yaml) puts updating comfy-aimdo right after the flag.
    expect(plan(sample('h15-0013').text)).toEqual({ entry: 'dynamic-vram-host-buffer', steps: ['disable-pinned-memory', 'update-or-rollback', 'disable-dynamic-vram-diagnostic', 'share-full-log'] });
    const chained = plan(sample('h26-0007').text);
    expect(chained.entry).toBe('gpu-oom-other');
    expect(chained.steps[0]).toBe('disable-pinned-memory');
  });

  it("answers Dynamic VRAM's 'Buffer too small' with a run without Dynamic VRAM, then matching versions", () => {
    const text = 'ValueError: Buffer too small: needs 56623104 bytes, but only has 0.\nDynamicVRAM support detected and enabled';
    expect(plan(text)).toEqual({ entry: 'dynamic-vram-host-buffer', steps: ['disable-dynamic-vram-diagnostic', 'update-or-rollback', 'disable-pinned-memory', 'share-full-log'] });
  });
});

describe('the node or the memory that ran out leads', () => {
  const RAM_KILLED = 'got prompt\nmodel weight dtype torch.bfloat16, manual cast: None\nKilled';

  it('puts giving back pinned RAM before swap when the log shows the build pins RAM, and swap first when it does not', () => {
    expect(plan(`Enabled pinned memory 26032.0\n${RAM_KILLED}`).steps[0]).toBe('disable-pinned-memory');
    const { entry, steps } = plan(RAM_KILLED);
    expect(entry).toBe('oom-killer');
    expect(steps[0]).toBe('linux-swap-oom-killer');
  });

  it('puts tiling first when an upscaler ran out, and offers it when no node is named', () => {
    const upscaler = plan(
      'Error occurred when executing ImageUpscaleWithModel:\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB. GPU 0 has a total capacity of 8.00 GiB of which 1.20 GiB is free.',
    );
    expect(upscaler.steps[0]).toBe('upscale-in-tiles');
    const unnamed = plan('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB. GPU 0 has a total capacity of 8.00 GiB of which 1.20 GiB is free.');
    expect(unnamed.entry).toBe('gpu-oom-other');
    expect(unnamed.steps.slice(0, 3)).toEqual(['reduce-workload', 'update-or-rollback', 'upscale-in-tiles']);
  });
});

describe('errors the kb does not name still get a plan', () => {
  it.each([
    ['quoted in a sentence', "When I queue it I got 'TypeError: unsupported operand type(s) for *: 'NoneType' and 'float'' and it stops."],
    ["in ComfyUI's Error Report", '## Error Details\n- **Node Type:** LoadImage\n- **Exception Type:** AttributeError\n- **Exception Message:** \'NoneType\' object has no attribute \'config\''],
  ])('an error %s: update, the failing node, the model file, a start without custom nodes, then the full log', (_, text) => {
    expect(plan(text)).toEqual({ entry: 'unrecognized-error', steps: ['update-or-rollback', 'update-custom-node', 'redownload-model-file', 'disable-custom-nodes', 'share-full-log'] });
  });

  it('reads a Japanese "press any key" right after loading shards as the crash it is', () => {
    const text = 'Loading checkpoint shards:  25%|██▌       | 1/4 [00:03<00:09,  3.10s/it]\n続行するには何かキーを押してください . . .';
    expect(plan(text).entry).toBe('silent-crash-on-load');
  });

  it('still says "no error" of a paste that shows none, and offers what fixed such threads before the full log', () => {
    const { entry, steps } = plan('Total VRAM 8192 MB, total RAM 32768 MB\nSet vram state to: NORMAL_VRAM\nloaded partially 5000 MB');
    expect(entry).toBe('no-error-found');
    expect(steps[0]).toBe('update-or-rollback');
    expect(steps.at(-1)).toBe('share-full-log');
  });
});
