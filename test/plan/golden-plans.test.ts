// Golden plans: one real-shaped log per kind of install (test/golden/plans/*.log, sources in the
// README there) and the plan drawn for it. A kb or planner change shows up as a reviewable diff of
// the .json files; refresh them deliberately with
//   UPDATE_GOLDEN=1 npx vitest run test/plan/golden-plans.test.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FLAG_MENTION, planSteps, type Plan } from '../../src/plan/plan.ts';
import { LANGS } from '../../src/i18n/messages.ts';
import { renderDiagnosis } from '../../src/render/diagnosis-text.ts';
import { classify, kb } from '../helpers/kb.ts';

const update = process.env.UPDATE_GOLDEN === '1';
const dir = (name: string) => fileURLToPath(new URL(`../golden/plans/${name}`, import.meta.url));

function drawn(name: string) {
  const d = classify(readFileSync(dir(`${name}.log`), 'utf8'));
  const plan = planSteps(d.entry, d.facts, kb);
  const { os, install, backend, gpuVendor, comfyuiVersion, dynamicVram, launchArgs } = d.facts;
  return {
    golden: {
      input: `${name}.log`,
      entry: d.entry.id,
      category: d.category,
      facts: { os, install, backend, gpuVendor, comfyuiVersion, dynamicVram, launchArgs },
      steps: plan.steps.map((s) => ({
        id: s.id,
        ...(s.snippets.length ? { snippets: s.snippets.map((x) => ({ for: x.label.en, ...(x.how ? { how: x.how.en } : {}), ...(x.code ? { code: x.code } : {}) })) } : {}),
        ...(s.notes.length ? { notes: s.notes.map((n) => n.en) } : {}),
      })),
      skipped: plan.skipped.map((s) => `${s.id}: ${s.reason}`),
    },
    plan,
  };
}

/** Every flag the plan puts in front of the user, in either language. */
const named = (plan: Plan) =>
  new Set(
    plan.steps.flatMap((s) =>
      [s.text.en, s.text.zh, s.why.en, s.title.en, s.verify.en, ...s.snippets.flatMap((x) => [x.how?.en ?? '', x.code ?? ''])].flatMap((t) => t.match(FLAG_MENTION) ?? []),
    ),
  );
const code = (plan: Plan) => plan.steps.flatMap((s) => s.snippets.flatMap((x) => x.code ?? '')).join('\n');
const labels = (plan: Plan) => new Set(plan.steps.flatMap((s) => s.snippets.map((x) => x.label.en)));

const cases = [
  {
    name: 'old-portable-nvidia',
    entry: 'gpu-oom-sampling',
    names: ['--reserve-vram', '--disable-smart-memory', '--windows-standalone-build', '--lowvram'],
    never: ['--vram-headroom', '--disable-dynamic-vram', '--disable-pinned-memory', '--normalvram', '--medvram'],
    forms: ['Windows portable (run_nvidia_gpu.bat)'],
  },
  {
    name: 'desktop-2026-dynamic-vram',
    entry: 'gpu-oom-sampling',
    names: ['--disable-dynamic-vram', '--disable-smart-memory'],
    // 0.18.0 has Dynamic VRAM but predates --vram-headroom and a Dynamic --reserve-vram (both 0.25.0, PR
    // #14480: kb-audit-2 N25); --lowvram does nothing under it.
    never: ['--vram-headroom', '--reserve-vram', '--lowvram', '--windows-standalone-build'],
    // The log cannot tell the legacy app (Server-Config) from the newer one (Startup Args): both.
    forms: ['ComfyUI Desktop', 'Comfy Desktop (the newer app that manages installations)'],
  },
  {
    name: 'amd-windows-zluda',
    entry: 'amd-hip-oom',
    names: ['--disable-smart-memory', '--reserve-vram'],
    // ZLUDA's launcher already sets --use-quad-cross-attention; a second attention flag stops ComfyUI.
    never: ['--use-pytorch-cross-attention', '--windows-standalone-build', '--vram-headroom', '--disable-dynamic-vram', '--disable-pinned-memory'],
    forms: ['ComfyUI-Zluda (comfyui-user.bat)'],
  },
  {
    name: 'amd-linux-rocm',
    entry: 'amd-hip-oom',
    // ComfyUI picks the attention itself on AMD; a forced PyTorch attention falls back to the math kernel (N11).
    names: ['--listen', '--use-split-cross-attention', '--disable-smart-memory', '--reserve-vram'],
    never: ['--windows-standalone-build', '--vram-headroom'],
    forms: ['Manual install (terminal)'],
  },
  {
    name: 'apple-silicon',
    entry: 'mps-oom',
    names: [],
    never: ['--force-fp16', '--fp8_e4m3fn-unet', '--reserve-vram', '--lowvram', '--disable-cuda-malloc', '--windows-standalone-build'],
    // The MPS cap's variable, for a Mac whose install the log doesn't show: the Desktop app or a terminal, never a .bat.
    forms: ['ComfyUI Desktop', 'Comfy Desktop (the newer app that manages installations)', 'Manual install (terminal)'],
  },
] as const;

describe('golden plans for each kind of install', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const { golden, plan } = drawn(name);
    const path = dir(`${name}.json`);
    if (update || !existsSync(path)) {
      writeFileSync(path, JSON.stringify(golden, null, 2) + '\n');
      if (!update) throw new Error(`wrote missing golden file ${path}; review and commit it`);
    }
    expect(golden).toEqual(JSON.parse(readFileSync(path, 'utf8')));

    expect(golden.entry).toBe(c.entry);
    const flags = named(plan);
    for (const f of c.names) expect(flags, `${name} should name ${f}`).toContain(f);
    for (const f of c.never) expect(flags, `${name} must not name ${f}`).not.toContain(f);
    // Only the install the log shows: no other launch form, no stray .bat or shell line.
    expect([...labels(plan)].filter((l) => !/^Command$|^Windows portable \(in the|^Manual install \(in ComfyUI/.test(l)).sort()).toEqual([...c.forms].sort());
  });

  // The same plans as each language's user reads them (test/golden/plans/NAME.LANG.txt): a
  // translation's change is a reviewable diff, and each keeps the English's commands to the letter.
  it.each(cases.flatMap((c) => LANGS.map((lang) => [c.name, lang] as const)))('%s in %s', (name, lang) => {
    const d = classify(readFileSync(dir(`${name}.log`), 'utf8'));
    const plan = planSteps(d.entry, d.facts, kb);
    const text = renderDiagnosis(d, plan, lang) + '\n';
    const path = dir(`${name}.${lang}.txt`);
    if (update || !existsSync(path)) {
      writeFileSync(path, text);
      if (!update) throw new Error(`wrote missing golden file ${path}; review and commit it`);
    }
    expect(text).toBe(readFileSync(path, 'utf8'));
    for (const line of code(plan).split('\n').filter(Boolean)) expect(text).toContain(line);
  });

  it('keeps the portable user’s whole .bat line, with the new flag at the end', () => {
    const { plan } = drawn('old-portable-nvidia');
    const reserve = plan.steps.find((s) => s.id === 'reserve-vram')!;
    expect(reserve.snippets.map((s) => s.code)).toEqual(['.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build --reserve-vram 2']);
  });

  it('tells a Desktop user the setting, not a command line', () => {
    const { plan } = drawn('desktop-2026-dynamic-vram');
    const smart = plan.steps.find((s) => s.id === 'attention-and-smart-memory')!;
    expect(smart.snippets.map((s) => s.how!.en)).toEqual([
      'Settings (gear icon, or Ctrl+,) → Server-Config → Memory → Disable smart memory management: set it to on, then restart ComfyUI.',
      '⋮ on the installation → Manage → Startup Args → Startup Arguments: add `--disable-smart-memory` at the end, then launch the installation again.',
    ]);
    expect(code(plan)).not.toMatch(/main\.py|\.bat/);
    // A flag Server-Config has no field for goes into the settings file.
    const diagnostic = plan.steps.find((s) => s.id === 'disable-dynamic-vram-diagnostic')!;
    expect(diagnostic.snippets[0]!.code).toBe('"Comfy.Server.LaunchArgs": {"disable-dynamic-vram":""}');
  });

  it('gives a Linux ROCm user their own python line and no Windows or expandable_segments advice', () => {
    const { plan } = drawn('amd-linux-rocm');
    const shownText = plan.steps.flatMap((s) => [s.text.en, ...s.snippets.flatMap((x) => [x.label.en, x.how?.en ?? '', x.code ?? ''])]).join('\n');
    expect(shownText.match(/run_nvidia_gpu|run_amd_gpu|Windows portable|PYTORCH_\w*ALLOC_CONF=expandable|\bset \w+=/g)).toBeNull();
    const reserve = plan.steps.find((s) => s.id === 'reserve-vram')!;
    expect(reserve.snippets.map((s) => s.code)).toEqual(['python main.py --listen 0.0.0.0 --reserve-vram 1']);
  });

  it('puts a ZLUDA user’s flags into comfyui-user.bat, adding no second attention flag to the one its launcher sets (kb-audit-2 N1)', () => {
    const { plan } = drawn('amd-windows-zluda');
    const attention = plan.steps.find((s) => s.id === 'attention-and-smart-memory')!;
    expect(attention.snippets.map((s) => s.code)).toEqual(['set "COMMANDLINE_ARGS=… --disable-smart-memory"']);
    expect(attention.text.en).toMatch(/Keep the attention flag your ZLUDA launcher sets/);
  });
});
