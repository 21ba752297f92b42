// The learner's decisions on counts: the kb order without evidence, evidence that moves a step,
// small samples shrunk, effort, rules and pins holding places, exploration, reproducible draws.
import { describe, expect, it } from 'vitest';
import { learningContext, modeFor, orderSteps, POLICY, seedOf, type Evidence } from '../../src/learn/index.ts';
import { seeded } from '../../src/learn/random.ts';

const kbSteps = ['a', 'b', 'c', 'd', 'update-or-rollback', 'share-full-log'].map((id) => ({ id, effort: 'low' as const }));
const row = (step: string, o: Partial<Evidence> = {}): Evidence => ({
  context: 'ctx',
  step,
  offered: 0,
  fixed: 0,
  assumed: 0,
  failed: 0,
  notApplied: 0,
  movedOn: 0,
  skipped: 0,
  ...o,
});
const kbOrder = kbSteps.map((s) => s.id);

describe('orderSteps', () => {
  it('keeps the kb order when nothing was recorded', () => {
    expect(orderSteps({ kbSteps, evidence: [] }).steps).toEqual(kbOrder);
    expect(orderSteps({ kbSteps, evidence: [], context: 'ctx' }).steps).toEqual(kbOrder);
  });

  it('moves a step that fixes most cases ahead of ones that rarely do', () => {
    const evidence = [row('a', { fixed: 5, failed: 95 }), row('c', { fixed: 70, failed: 30 })];
    const { steps, estimates } = orderSteps({ kbSteps, evidence, context: 'ctx' });
    expect(steps.slice(0, 2)).toEqual(['c', 'b']);
    expect(estimates.find((e) => e.step === 'c')).toMatchObject({ answers: 100, entryAnswers: 100 });
    expect(estimates.find((e) => e.step === 'c')!.chance).toBeGreaterThan(0.6);
  });

  it('shrinks a small sample toward the kb order: three lucky fixes do not put a late step first', () => {
    const { steps } = orderSteps({ kbSteps, evidence: [row('d', { fixed: 3 })], context: 'ctx' });
    expect(steps[0]).toBe('a');
  });

  it('counts could-not-apply and skips as misses, a different failure after a step as progress, an assumed fix as half', () => {
    const misses = orderSteps({ kbSteps, evidence: [row('a', { notApplied: 30, skipped: 30 })] }).estimates[0]!;
    expect(misses.chance).toBeLessThan(POLICY.prior.top / 4);
    const moved = orderSteps({ kbSteps, evidence: [row('b', { movedOn: 40 })] }).estimates[1]!;
    const assumed = orderSteps({ kbSteps, evidence: [row('b', { assumed: 40 })] }).estimates[1]!;
    expect(moved.chance).toBeGreaterThan(0.8);
    expect(assumed.chance).toBeCloseTo((POLICY.prior.strength * moved.prior + 20) / (POLICY.prior.strength + 40), 5);
  });

  it('weighs effort: an equally good high-effort step goes after a low-effort one', () => {
    const steps = [
      { id: 'hard', effort: 'high' as const },
      { id: 'easy', effort: 'low' as const },
    ];
    const evidence = [row('hard', { fixed: 50, failed: 50 }), row('easy', { fixed: 50, failed: 50 })];
    expect(orderSteps({ kbSteps: steps, evidence }).steps).toEqual(['easy', 'hard']);
  });

  it('keeps the last resorts where the kb puts them, whatever the counts', () => {
    const evidence = [row('share-full-log', { fixed: 500 }), row('update-or-rollback', { fixed: 400 })];
    const { steps, estimates } = orderSteps({ kbSteps, evidence });
    expect(steps.slice(-2)).toEqual(['update-or-rollback', 'share-full-log']);
    expect(estimates.at(-1)).toMatchObject({ held: 'rule' });
  });

  it('keeps a pinned step in its kb place, or the place a moderator chose', () => {
    const evidence = [row('a', { failed: 200 }), row('d', { fixed: 200 })];
    expect(orderSteps({ kbSteps, evidence, pins: [{ step: 'a' }] }).steps.slice(0, 2)).toEqual(['a', 'd']);
    expect(orderSteps({ kbSteps, evidence, pins: [{ step: 'b', place: 0 }] }).steps[0]).toBe('b');
    // Two pins for one place: the later one takes the next free place.
    expect(orderSteps({ kbSteps, evidence: [], pins: [{ step: 'c', place: 0 }, { step: 'd', place: 0 }] }).steps.slice(0, 3)).toEqual(['c', 'd', 'a']);
  });

  it('lets a setup with enough answers differ from the rest of the entry, and shrinks one with few toward it', () => {
    const elsewhere = [row('a', { context: 'other', fixed: 300, failed: 100 }), row('b', { context: 'other', fixed: 20, failed: 380 })];
    const strong = [...elsewhere, row('a', { failed: 150 }), row('b', { fixed: 100, failed: 50 })];
    expect(orderSteps({ kbSteps, evidence: strong, context: 'ctx' }).steps[0]).toBe('b');
    expect(orderSteps({ kbSteps, evidence: strong, context: 'other' }).steps[0]).toBe('a');
    const weak = [...elsewhere, row('a', { failed: 2 }), row('b', { fixed: 2 })];
    expect(orderSteps({ kbSteps, evidence: weak, context: 'ctx' }).steps[0]).toBe('a');
  });

  it('draws the same order from the same seed, and explores: a step with no answers is sometimes drawn first', () => {
    const evidence = [row('a', { fixed: 30, failed: 70 }), row('b', { fixed: 30, failed: 70 })];
    const draw = (seed: number) => orderSteps({ kbSteps, evidence, context: 'ctx', rand: seeded(seed) }).steps;
    expect(draw(seedOf('case-1:0'))).toEqual(draw(seedOf('case-1:0')));
    const firsts = new Set(Array.from({ length: 400 }, (_, i) => draw(i)[0]));
    expect(firsts.has('c')).toBe(true);
    // Held steps stay put in every draw.
    for (let i = 0; i < 50; i++) expect(draw(i).slice(-2)).toEqual(['update-or-rollback', 'share-full-log']);
  });
});

describe('modeFor', () => {
  it('is what COMFYOOM_ADAPTIVE says, and auto turns on once an entry has enough confirmed fixes', () => {
    expect(modeFor('off', 1000)).toBe('off');
    expect(modeFor('on', 0)).toBe('on');
    expect(modeFor('suggest', 1000)).toBe('suggest');
    expect(modeFor('auto', POLICY.autoOnConfirmed - 1)).toBe('suggest');
    expect(modeFor('auto', POLICY.autoOnConfirmed)).toBe('on');
  });
});

describe('learningContext', () => {
  it('names the VRAM tier, OS, backend (or vendor) and dynamic VRAM, with ? for what the log does not say', () => {
    expect(learningContext({ vramGb: 6, os: 'windows', backend: 'cuda', dynamicVram: false })).toBe('vram=<8 os=windows backend=cuda dynvram=off');
    expect(learningContext({ vramGb: 8 })).toBe('vram=8-16 os=? backend=? dynvram=?');
    expect(learningContext({ vramGb: 24, gpuVendor: 'amd', dynamicVram: true })).toBe('vram=24+ os=? backend=amd dynvram=on');
    expect(learningContext({})).toBe('vram=? os=? backend=? dynvram=?');
  });
});
