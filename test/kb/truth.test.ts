// The bot may only name flags that exist in ComfyUI, as read from its source (the facts sheet) or
// its own launch scripts; must never name the two that people confuse with real ones; must offer
// a flag only to builds that have it, and say which builds do when the log shows no version.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Facts } from '../../src/classify/facts/types.ts';
import { DEFAULT_KB_DIR } from '../../src/kb/dir.ts';
import { loadKb, type Kb } from '../../src/kb/load.ts';
import type { Condition, Flag, Step, Text } from '../../src/kb/schema.ts';
import { FLAG_MENTION, planSteps, stepTexts, variantTexts, type PlannedStep } from '../../src/plan/plan.ts';
import { compareVersions } from '../../src/classify/conditions.ts';
import { kb } from '../helpers/kb.ts';
import { fixture } from '../helpers/corpus.ts';

const factsSheet = readFileSync(fixture('comfyui-facts.md'), 'utf8');
const flagSection = factsSheet.slice(factsSheet.indexOf('## 1. Command-line flags'), factsSheet.indexOf('## 2. '));
const sheetFlags = new Set([...flagSection.matchAll(/`(--[a-z0-9][a-z0-9_-]*)/g)].map((m) => m[1]!));
/** Flags the facts sheet says the Oct-2025 snapshot lacks: a table row with S = no, or listed "N only". */
const sheetNewer = new Set([
  ...[...flagSection.matchAll(/^\| `(--[a-z0-9_-]+)`[^|]*\| \**no\** \|/gm)].map((m) => m[1]!),
  ...[...flagSection.matchAll(/N only: (`--[^\n]*)/g)].flatMap((m) => [...m[1]!.matchAll(/`(--[a-z0-9_-]+)`/g)].map((x) => x[1]!)),
]);

/** Every string inside a kb value, however deep. */
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];
/** Options of other tools the kb tells people to run, each with its tool: not ComfyUI flags. */
const FOREIGN = /\bwsl --shutdown\b/g;
const flagsIn = (v: unknown) => new Set(strings(v).flatMap((s) => s.replace(FOREIGN, '').match(FLAG_MENTION) ?? []));

const everything = [...kb.entries, ...kb.steps.values(), ...kb.leads, ...kb.models];
const dated = [...kb.flags.values()].filter((f) => f.since);

/** Everything a user reads or copies of a planned step. */
const shown = (s: PlannedStep) => [...strings([s.title, s.why, s.text, s.verify]), ...s.snippets.flatMap((x) => strings([x.label, x.how, x.code]))];

/** One version before another: the newest build that still lacks a flag. */
function before(version: string): string {
  const [a, b, c] = version.split('.').map(Number) as [number, number, number];
  return c > 0 ? `${a}.${b}.${c - 1}` : b > 0 ? `${a}.${b - 1}.99` : `${a - 1}.99.99`;
}

/** Machines the plans are drawn for, with the facts that unlock the kb's conditional variants. */
const machines: Partial<Facts>[] = [
  { os: 'windows', install: 'portable', gpuVendor: 'nvidia', backend: 'cuda' },
  { os: 'windows', install: 'desktop', gpuVendor: 'nvidia', backend: 'cuda', dynamicVram: true },
  { os: 'linux', gpuVendor: 'nvidia', backend: 'cuda', reservedUnallocatedGb: 3, dynamicVram: true },
  { os: 'linux', gpuVendor: 'amd', backend: 'rocm' },
  { os: 'windows', gpuVendor: 'amd', backend: 'zluda' },
  { os: 'macos', gpuVendor: 'apple', backend: 'mps' },
  { flags: ['--fast'] },
  { flags: ['--highvram', '--fp32-vae', '--cache-classic', '--reserve-vram'] },
  { reservedUnallocatedGb: 3 },
  {},
];
const stages: Partial<Facts>[] = [{ stage: 'sampling' }, { stage: 'vae_decode' }, { stage: 'model_load' }, { stage: 'upscale' }];
const facts = (f: Partial<Facts>): Facts => ({ signatures: [], flags: [], evidence: {}, ...f });

/** Every plan of every entry on every machine, with the facts it was drawn for. */
function plans(k: Kb, extra: Partial<Facts>) {
  return k.entries.flatMap((e) =>
    machines.flatMap((m) => stages.map((st) => ({ entry: e.id, f: facts({ oom: 'cuda', ...st, ...m, ...extra }) }))).map(({ entry, f }) => ({
      entry,
      f,
      plan: planSteps(k.entries.find((x) => x.id === entry)!, f, k),
    })),
  );
}

/** Plans on a build one version before each flag's first: (entry, flag) pairs that still offer it. */
function offeredTooEarly(k: Kb): string[] {
  const out: string[] = [];
  for (const flag of [...k.flags.values()].filter((f) => f.since?.version)) {
    for (const { entry, plan } of plans(k, { comfyuiVersion: before(flag.since!.version!) })) {
      for (const s of plan.steps) if (shown(s).some((t) => (t.match(FLAG_MENTION) ?? ([] as string[])).includes(flag.flag))) out.push(`${entry}/${s.id}: ${flag.flag}`);
    }
  }
  return [...new Set(out)];
}

/** Explicit version conditions in steps that let a flag through before its first build. */
function gatesTooEarly(k: Kb): string[] {
  const out: string[] = [];
  const gates = (c: Condition | undefined): { op: 'versionLt' | 'versionGte'; v: string }[] => {
    if (!c) return [];
    if ('fact' in c) return c.fact === 'comfyuiVersion' ? [...(c.versionLt ? [{ op: 'versionLt' as const, v: c.versionLt }] : []), ...(c.versionGte ? [{ op: 'versionGte' as const, v: c.versionGte }] : [])] : [];
    if ('not' in c) return gates(c.not).map((g) => ({ op: g.op === 'versionLt' ? ('versionGte' as const) : ('versionLt' as const), v: g.v }));
    return ('all' in c ? c.all : c.any).flatMap(gates);
  };
  const check = (step: Step, where: string, texts: string[], opens: { op: string; v: string }[]) => {
    for (const name of new Set(texts.flatMap((t) => t.match(FLAG_MENTION) ?? []))) {
      const first = k.flags.get(name)?.since?.version;
      for (const g of opens) if (first && compareVersions(g.v, first) < 0) out.push(`${step.id}${where}: ${name} from ${first}, gate at ${g.v}`);
    }
  };
  for (const step of k.steps.values()) {
    // A skipIf "version below V" lets the step through from V on; a when "version V or above" lets its variant through.
    const stepGates = [...gates(step.skipIf).filter((g) => g.op === 'versionLt'), ...gates(step.onlyIf).filter((g) => g.op === 'versionGte')];
    check(step, '', [...stepTexts(step), ...step.do.flatMap(variantTexts)], stepGates);
    step.do.forEach((v, i) => check(step, ` do.${i}`, variantTexts(v), gates(v.when).filter((g) => g.op === 'versionGte')));
  }
  return out;
}

describe('truth: flags named by the kb', () => {
  it('reads the facts sheet flag tables', () => {
    expect(sheetFlags.size).toBeGreaterThan(50);
    expect(sheetFlags.has('--reserve-vram')).toBe(true);
    expect([...sheetNewer]).toEqual(expect.arrayContaining(['--vram-headroom', '--disable-pinned-memory', '--cache-ram', '--fp16-intermediates']));
    expect(sheetNewer.has('--reserve-vram')).toBe(false);
  });

  it('catalogues only flags from the facts sheet, or from a launch script or doc it cites', () => {
    for (const f of kb.flags.values()) expect(sheetFlags.has(f.flag) || !!f.source, `${f.flag} has no source`).toBe(true);
  });

  it('names only catalogued flags, in the kb and in the launch lines', () => {
    const named = flagsIn([...everything, kb.launch]);
    expect(named.size).toBeGreaterThan(10);
    for (const flag of named) expect(kb.flags.has(flag), `${flag} is missing from kb/flags.yaml`).toBe(true);
  });

  it('never suggests --normalvram or --medvram: named only where a refused flag is explained', () => {
    const offered = flagsIn([...[...kb.steps.values()].flatMap((s) => s.do.map((v) => v.launch)), kb.launch]);
    expect(offered.has('--normalvram')).toBe(false);
    expect(offered.has('--medvram')).toBe(false);
    const naming = everything.filter((x) => ['--normalvram', '--medvram'].some((f) => flagsIn({ ...x, notes: undefined }).has(f))).map((x) => x.id);
    expect(naming.sort()).toEqual(['fix-rejected-flag', 'launch-flag-rejected']);
    expect(kb.flags.get('--normalvram')?.status).toBe('removed');
    expect(kb.flags.get('--medvram')?.status).toBe('never');
  });
});

describe('truth: versions are data', () => {
  it('gives every flag the Oct-2025 snapshot lacks its first build, with a source', () => {
    for (const name of sheetNewer) {
      const f = kb.flags.get(name);
      if (!f) continue;
      expect(f.since, `${name} has no since`).toBeDefined();
      expect(f.since!.month).toMatch(/^20\d\d-\d\d$/);
      expect(f.since!.source.url).toMatch(/^https:\/\//);
    }
    for (const f of kb.flags.values()) if (f.status === 'newer') expect(f.since, f.flag).toBeDefined();
    expect(kb.flags.get('--vram-headroom')!.since).toMatchObject({ version: '0.25.0', month: '2026-06' });
    expect(kb.flags.get('--disable-dynamic-vram')!.since).toMatchObject({ version: '0.16.0' });
    expect(kb.flags.get('--disable-pinned-memory')!.since).toMatchObject({ version: '0.3.68' });
    expect(kb.flags.get('--cache-none')!.since).toMatchObject({ version: '0.3.28', month: '2025-04' });
  });

  it('never offers a flag to a build one version before its first', () => {
    expect(offeredTooEarly(kb)).toEqual([]);
  });

  it('has no version condition earlier than the first build of a flag it lets through', () => {
    expect(gatesTooEarly(kb)).toEqual([]);
  });

  it('offers a flag some builds lack, when the log shows no version, with the builds that have it and what older ones say', () => {
    let checked = 0;
    for (const { entry, plan } of plans(kb, { dynamicVram: true })) {
      for (const s of plan.steps) {
        const named = new Set(shown(s).flatMap((t) => t.match(FLAG_MENTION) ?? []));
        for (const f of dated.filter((x) => named.has(x.flag))) {
          checked++;
          const note = s.notes.find((n) => n.en.includes(`\`${f.flag}\``));
          expect(note?.en, `${entry}/${s.id}: ${f.flag}`).toMatch(/unrecognized arguments/);
          expect(note?.zh, `${entry}/${s.id}: ${f.flag}`).toMatch(/unrecognized arguments/);
          expect(note?.en).toContain(f.since!.version ?? '');
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  describe('catches a kb that gets it wrong', () => {
    const dirs: string[] = [];
    afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
    const broken = (edit: (dir: string) => void): Kb => {
      const root = mkdtempSync(join(tmpdir(), 'kb-truth-'));
      dirs.push(root);
      const dir = join(root, 'kb');
      cpSync(DEFAULT_KB_DIR, dir, { recursive: true });
      edit(dir);
      return loadKb(dir);
    };
    const editYaml = (file: string, change: (v: never) => void) => {
      const value = parse(readFileSync(file, 'utf8'));
      change(value as never);
      writeFileSync(file, stringify(value));
    };

    it('a newer-only flag catalogued without its first build is offered to old builds', () => {
      const k = broken((dir) =>
        editYaml(join(dir, 'flags.yaml'), (flags: Flag[]) => {
          const f = flags.find((x) => x.flag === '--vram-headroom')!;
          delete (f as Partial<Flag>).since;
          f.status = 'in';
        }),
      );
      expect([...k.flags.values()].some((f) => f.flag === '--vram-headroom' && !f.since && sheetNewer.has(f.flag))).toBe(true);
      const ungated = plans(k, { comfyuiVersion: '0.3.40', dynamicVram: true }).flatMap(({ plan }) => plan.steps.filter((s) => shown(s).some((t) => t.includes('--vram-headroom'))));
      expect(ungated.length).toBeGreaterThan(0);
    });

    it('a version condition earlier than the flag it lets through', () => {
      const k = broken((dir) =>
        editYaml(join(dir, 'steps', 'dynamic-vram-headroom.yaml'), (step: Step) => {
          step.do.unshift({ ...step.do[0]!, when: { fact: 'comfyuiVersion', versionGte: '0.3.65' } });
        }),
      );
      expect(gatesTooEarly(k)).toEqual(['dynamic-vram-headroom do.0: --vram-headroom from 0.25.0, gate at 0.3.65']);
    });
  });
});

describe('truth: languages and sources', () => {
  /** What users read of an entry, a step, or a lead (a known issue's text). */
  const texts = (item: (typeof everything)[number]): Text[] =>
    'sizes' in item
      ? [item.sizes]
      : !('title' in item)
      ? item.note
        ? [item.note]
        : []
      : [
          item.title,
          'cause' in item ? item.cause : item.why,
          ...('do' in item ? [...item.do.flatMap((v) => [v.text, ...(v.verify ? [v.verify] : [])]), item.verify] : []),
          ...('variants' in item ? (item.variants ?? []).flatMap((v) => [v.title, v.cause]) : []),
        ];

  it('has a real Chinese text next to every English one', () => {
    for (const item of everything) {
      for (const t of texts(item)) {
        expect(t.zh, `${item.id}: ${t.en}`).toMatch(/[\u4e00-\u9fff]/);
        expect(t.en, item.id).toMatch(/[a-z]/i);
      }
    }
  });

  it('says the same in Chinese: the same flags, code and numbers as the English', () => {
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
    // "June 2026" is "2026 年 6 月": the month's number is the same fact.
    const monthsAsNumbers = (s: string) => s.replace(new RegExp(`\\b(${months.join('|')})\\b`, 'g'), (m) => String(months.indexOf(m) + 1));
    const code = (s: string) => [...s.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).sort();
    const numbers = (s: string) => [...monthsAsNumbers(s).matchAll(/(?<![\w.])\d+(?:\.\d+)*(?!\w|\.\d)/g)].map((m) => m[0]).sort();
    const differ: string[] = [];
    for (const item of everything) {
      for (const t of texts(item)) {
        for (const [what, read] of [['flags', (x: string) => [...flagsIn(x)].sort()], ['code', code], ['numbers', numbers]] as const) {
          const en = read(t.en).join(' ');
          const zh = read(t.zh).join(' ');
          if (en !== zh) differ.push(`${item.id} ${what}: en [${en}] zh [${zh}] in "${t.en.slice(0, 50)}"`);
        }
      }
    }
    expect(differ).toEqual([]);
  });

  it('cites at least one source for every entry and step', () => {
    for (const item of everything) expect(item.sources.length, item.id).toBeGreaterThan(0);
  });

  it('cites sources that can be opened: a repository file, an issue or pull request, a docs page', () => {
    const all: { title: string; url: string }[] = [
      ...everything.flatMap((x) => x.sources),
      ...[...kb.flags.values()].flatMap((f) => [f.since?.source, f.until?.source, f.source].filter((s) => s !== undefined)),
      ...strings(kb.launch).filter((s) => s.startsWith('http')).map((url) => ({ title: 'launch', url })),
    ];
    expect(all.length).toBeGreaterThan(100);
    for (const { url, title } of all) {
      expect(url, title).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\//);
      if (url.startsWith('https://github.com/')) {
        expect(url, title).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+(?:\/(?:issues|pull)\/\d+|\/blob\/(?:master|main)\/[\w./-]+\.[\w]+)?$/);
      }
      // An issue or pull request cited by number names that number in its title.
      const n = /\/(?:issues|pull)\/(\d+)$/.exec(url)?.[1];
      if (n && title !== 'launch') expect(title, url).toContain(`#${n}`);
    }
  });

  it('no longer cites ComfyUI issue #11624, which could not be found', () => {
    expect(strings([...everything, kb.flags]).join(' ')).not.toMatch(/issues\/11624/);
  });
});

describe('coverage of failure families', () => {
  it('answers every corpus category', () => {
    const categories = new Set(kb.entries.map((e) => e.category));
    for (const c of ['oom_gpu_sampling', 'oom_gpu_vae', 'oom_gpu_model_load', 'oom_gpu_other', 'oom_cpu_ram', 'oom_amd_hip', 'oom_mps', 'oom_directml', 'not_oom']) {
      expect(categories, c).toContain(c);
    }
  });

  it("has the seed entry's steps for a KSampler OOM in its order; its fourth, tiled VAE decoding, goes to VAE failures", () => {
    const sampling = kb.entries.find((e) => e.id === 'gpu-oom-sampling')!;
    const order = ['reduce-workload', 'reserve-vram', 'attention-and-smart-memory'].map((id) => sampling.steps.indexOf(id));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(sampling.steps).toContain('vae-precision-or-cpu');
    // Decoding in tiles cannot fix a failure in sampling (issue 29): it leads the VAE entry instead.
    expect(sampling.steps).not.toContain('tiled-vae-decode');
    expect(kb.entries.find((e) => e.id === 'gpu-oom-vae')!.steps[0]).toBe('tiled-vae-decode');
  });

  it('corrects the seed: Windows reserves 600 MB (700 MB with more than 15 GB), other systems 400 MB', () => {
    const text = strings(kb.steps.get('reserve-vram')).join(' ');
    expect(text).toMatch(/600/);
    expect(text).toMatch(/700 MB on Windows with a card of more than 15 GB/);
    expect(text).toMatch(/400/);
  });

  it('has a pointer for each usual near miss, and for the bot’s own advice that did not apply', () => {
    const ids = new Set(kb.entries.map((e) => e.id));
    for (const id of ['gpu-kernel-fault', 'no-kernel-image', 'device-mismatch', 'broken-model-file', 'torch-not-cuda', 'shape-mismatch', 'missing-nodes', 'launch-flag-rejected', 'expandable-segments-ignored']) {
      expect(ids, id).toContain(id);
    }
  });
});
