// The bot may only name flags that exist in ComfyUI, as read from its source (the facts sheet),
// must never name the two that people confuse with real ones, and must say when a flag is new.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kb } from '../helpers/kb.ts';
import { fixture } from '../helpers/corpus.ts';

const factsSheet = readFileSync(fixture('comfyui-facts.md'), 'utf8');
const flagSection = factsSheet.slice(factsSheet.indexOf('## 1. Command-line flags'), factsSheet.indexOf('## 2. '));
const sheetFlags = new Set([...flagSection.matchAll(/`(--[a-z0-9][a-z0-9_-]*)/g)].map((m) => m[1]!));
const FLAG = /(?<![\w-])--[a-z0-9][a-z0-9_-]*[a-z0-9]/g;

/** Every string inside a kb value, however deep. */
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];
const flagsIn = (v: unknown) => new Set(strings(v).flatMap((s) => s.match(FLAG) ?? []));

const everything = [...kb.entries, ...kb.steps.values()];

describe('truth: flags named by the kb', () => {
  it('reads the facts sheet flag tables', () => {
    expect(sheetFlags.size).toBeGreaterThan(50);
    expect(sheetFlags.has('--reserve-vram')).toBe(true);
  });

  it('names only flags that the facts sheet lists, all of them catalogued in kb/flags.yaml', () => {
    const named = flagsIn(everything);
    expect(named.size).toBeGreaterThan(10);
    for (const flag of named) {
      expect(sheetFlags, `${flag} is not in the facts sheet`).toContain(flag);
      expect(kb.flags.has(flag), `${flag} is missing from kb/flags.yaml`).toBe(true);
    }
  });

  it('never suggests --normalvram or --medvram', () => {
    const named = flagsIn(everything);
    expect(named.has('--normalvram')).toBe(false);
    expect(named.has('--medvram')).toBe(false);
    expect(kb.flags.get('--normalvram')?.status).toBe('removed');
    expect(kb.flags.get('--medvram')?.status).toBe('never');
  });

  it('catalogues only flags from the facts sheet', () => {
    for (const flag of kb.flags.keys()) expect(sheetFlags, flag).toContain(flag);
  });

  it('offers a newer-only flag only with a version condition, and says it is for newer builds', () => {
    const newer = new Set([...kb.flags.values()].filter((f) => f.status === 'newer').map((f) => f.flag));
    expect(newer.has('--disable-dynamic-vram')).toBe(true);
    for (const step of kb.steps.values()) {
      const used = [...flagsIn(step.do)].filter((f) => newer.has(f));
      if (!used.length) continue;
      expect(JSON.stringify([step.skipIf, step.onlyIf, step.do.map((v) => v.when)]), `${step.id} uses ${used} without a version condition`).toMatch(/comfyuiVersion/);
      const variants = step.do.filter((v) => [...flagsIn(v)].some((f) => newer.has(f)));
      for (const v of variants) expect(`${v.text.en} ${step.title.en} ${step.why.en}`, `${step.id} does not say the flag is new`).toMatch(/newer|new build|recent|20(25|26)|--help/i);
    }
  });
});

describe('truth: languages and sources', () => {
  it('has a real Chinese text next to every English one', () => {
    for (const item of everything) {
      const texts = [item.title, 'cause' in item ? item.cause : item.why, ...('do' in item ? item.do.map((v) => v.text) : [])];
      for (const t of texts) {
        expect(t.zh, `${item.id}: ${t.en}`).toMatch(/[\u4e00-\u9fff]/);
        expect(t.en, item.id).toMatch(/[a-z]/i);
      }
    }
  });

  it('cites at least one source for every entry and step', () => {
    for (const item of everything) expect(item.sources.length, item.id).toBeGreaterThan(0);
  });
});

describe('coverage of failure families', () => {
  it('answers every corpus category', () => {
    const categories = new Set(kb.entries.map((e) => e.category));
    for (const c of ['oom_gpu_sampling', 'oom_gpu_vae', 'oom_gpu_model_load', 'oom_gpu_other', 'oom_cpu_ram', 'oom_amd_hip', 'oom_mps', 'oom_directml', 'not_oom']) {
      expect(categories, c).toContain(c);
    }
  });

  it('has the seed entry: four ordered steps for a KSampler OOM', () => {
    const sampling = kb.entries.find((e) => e.id === 'gpu-oom-sampling')!;
    const order = ['reduce-workload', 'reserve-vram', 'attention-and-smart-memory', 'tiled-vae-decode'].map((id) => sampling.steps.indexOf(id));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(sampling.steps).toContain('vae-precision-or-cpu');
  });

  it('corrects the seed: Windows reserves 600 MB (700 MB on 16 GB+ cards), other systems 400 MB', () => {
    const text = strings(kb.steps.get('reserve-vram')).join(' ');
    expect(text).toMatch(/600/);
    expect(text).toMatch(/700/);
    expect(text).toMatch(/400/);
  });

  it('has a pointer for each usual near miss', () => {
    const ids = new Set(kb.entries.map((e) => e.id));
    for (const id of ['gpu-kernel-fault', 'no-kernel-image', 'device-mismatch', 'broken-model-file', 'torch-not-cuda', 'shape-mismatch', 'missing-nodes']) {
      expect(ids, id).toContain(id);
    }
  });
});
