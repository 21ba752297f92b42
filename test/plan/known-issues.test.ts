// Known regressions (kb/known-issues.yaml), matched from the versions and the signs a paste shows:
// their fix leads the plan and the user reads what the issue is, beside it.
import { describe, expect, it } from 'vitest';
import { planSteps } from '../../src/plan/plan.ts';
import { classify, kb } from '../helpers/kb.ts';

const plan = (text: string) => {
  const d = classify(text);
  return planSteps(d.entry, d.facts, kb).steps;
};
const OOM = [
  'Error occurred when executing KSampler:',
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 24.00 GiB of which 900.00 MiB is free.',
].join('\n');
const noted = (steps: ReturnType<typeof plan>) => steps.flatMap((s) => s.notes.map((n) => ({ step: s.id, en: n.en })));

describe('known issues', () => {
  it('leads with updating for the build that had the regression, and says which issue it is', () => {
    const steps = plan(`ComfyUI version: 0.3.67\n${OOM}`);
    expect(steps[0]!.id).toBe('update-or-rollback');
    expect(noted(steps)).toEqual([{ step: 'update-or-rollback', en: expect.stringMatching(/^Known issue: ComfyUI 0\.3\.67/) }]);
  });

  it('stays silent for the builds before and after it, and when the log shows no version', () => {
    for (const version of ['0.3.66', '0.3.68']) {
      const steps = plan(`ComfyUI version: ${version}\n${OOM}`);
      expect(noted(steps).filter((n) => n.en.startsWith('Known issue')), version).toEqual([]);
      expect(steps[0]!.id).not.toBe('update-or-rollback');
    }
    expect(noted(plan(OOM)).filter((n) => n.en.startsWith('Known issue'))).toEqual([]);
  });

  it("names comfy-aimdo's host-buffer failure beside giving pinned RAM back", () => {
    const steps = plan(`DynamicVRAM support detected and enabled\n${OOM}\nRuntimeError: HostBuffer.read_file_slice failed`);
    expect(steps[0]!.id).toBe('disable-pinned-memory');
    expect(steps[0]!.notes.map((n) => n.en)).toContainEqual(expect.stringMatching(/^Known issue: comfy-aimdo/));
  });

  it('cites every row and names only its own fix steps, which the kb has', () => {
    const known = kb.leads.filter((l) => l.id.startsWith('known-issue-'));
    expect(known.length).toBeGreaterThan(1);
    for (const k of known) {
      expect(k.sources.length, k.id).toBeGreaterThan(0);
      expect(k.note?.zh, k.id).toMatch(/已知问题/);
      for (const s of k.steps) expect(kb.steps.has(s), `${k.id}: ${s}`).toBe(true);
    }
  });
});
