// The plan adapts to what the log says about the user's machine.
import { describe, expect, it } from 'vitest';
import { planSteps } from '../../src/plan/plan.ts';
import type { Facts } from '../../src/classify/facts/types.ts';
import { kb } from '../helpers/kb.ts';

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

  it('keeps the seed order for a KSampler OOM', () => {
    const order = ids({ os: 'windows', vramGb: 8 }, 'gpu-oom-sampling');
    expect(order.indexOf('reduce-workload')).toBeLessThan(order.indexOf('reserve-vram'));
    expect(order.indexOf('reserve-vram')).toBeLessThan(order.indexOf('attention-and-smart-memory'));
    expect(order.indexOf('attention-and-smart-memory')).toBeLessThan(order.indexOf('tiled-vae-decode'));
  });
});
