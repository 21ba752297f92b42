// The readable diagnosis for a terminal: what failed, what the log shows, and the tailored plan.
import type { Diagnosis } from '../classify/classify.ts';
import { wording } from '../classify/wording.ts';
import type { Facts } from '../classify/facts/types.ts';
import { aside, FULL_WIDTH, heading, labelled, M, t, type Lang } from '../i18n/messages.ts';
import { UP_FRONT, type Plan, type SkippedStep } from '../plan/plan.ts';
import { P } from '../plan/strings.ts';
import type { Text } from '../kb/schema.ts';

export const SKIP_REASON: Record<SkippedStep['reason'], Text> = {
  'already-applied': M.alreadyApplied,
  'does-not-apply': M.doesNotApply,
  'needs-newer-build': P.skippedNeedsNewer,
};

/** Proper names, the same in every language. */
const OS_NAME: Record<NonNullable<Facts['os']>, string> = { windows: 'Windows', linux: 'Linux', macos: 'macOS' };
const BACKEND_NAME: Record<NonNullable<Facts['backend']>, string> = { cuda: 'CUDA', rocm: 'ROCm', zluda: 'ZLUDA', mps: 'MPS (Apple)', directml: 'DirectML', xpu: 'XPU (Intel)', cpu: 'CPU' };
const ATTENTION_NAME: Record<NonNullable<Facts['attention']>, string> = { sage: 'SageAttention', flash: 'FlashAttention', xformers: 'xformers', pytorch: 'PyTorch (SDPA)', split: 'split', quad: 'sub-quadratic' };
const APP_NAME: Record<string, string> = { forge: 'Forge', a1111: 'AUTOMATIC1111', webui: 'AUTOMATIC1111/Forge', fooocus: 'Fooocus', invokeai: 'InvokeAI', sdnext: 'SD.Next', wan2gp: 'Wan2GP', easydiffusion: 'Easy Diffusion', swarmui: 'SwarmUI' };

/** Said before the plan when the log is another app's: the steps name ComfyUI's flags and nodes. */
export function otherAppNote(facts: Facts, lang: Lang): string | undefined {
  if (!facts.app || facts.app === 'comfyui') return undefined;
  return t(M.otherApp, lang).replaceAll('{app}', APP_NAME[facts.app] ?? facts.app);
}

const gb = (n: number) => (n >= 1 ? `${Math.round(n * 100) / 100} GB` : `${Math.round(n * 1024)} MB`);

/** The facts worth showing a user, as label/value pairs in their language. */
export function describeFacts(facts: Facts, lang: Lang): [string, string][] {
  const out: [string, string][] = [];
  const label = (k: keyof typeof M.facts) => t(M.facts[k], lang);
  if (facts.oom) out.push([label('oom'), t(M.values[facts.oom], lang)]);
  if (facts.node) out.push([label('node'), facts.node]);
  if (facts.stage) out.push([label('stage'), t(M.stage[facts.stage], lang)]);
  if (facts.requestedGb !== undefined) out.push([label('requestedGb'), gb(facts.requestedGb)]);
  if (facts.freeGb !== undefined) out.push([label('freeGb'), gb(facts.freeGb)]);
  if (facts.totalGb !== undefined) out.push([label('totalGb'), gb(facts.totalGb)]);
  if (facts.reservedUnallocatedGb !== undefined) out.push([label('reservedUnallocatedGb'), gb(facts.reservedUnallocatedGb)]);
  if (facts.gpuName) out.push([label('gpuName'), facts.gpuName]);
  if (facts.vramGb !== undefined) out.push([label('vramGb'), gb(facts.vramGb)]);
  if (facts.ramGb !== undefined) out.push([label('ramGb'), gb(facts.ramGb)]);
  if (facts.os) out.push([label('os'), OS_NAME[facts.os]]);
  if (facts.backend) out.push([label('backend'), BACKEND_NAME[facts.backend]]);
  if (facts.app && facts.app !== 'comfyui') out.push([label('app'), APP_NAME[facts.app] ?? facts.app]);
  if (facts.install) out.push([label('install'), t(M.install[facts.install], lang)]);
  if (facts.comfyuiVersion) out.push([label('comfyuiVersion'), facts.comfyuiVersion]);
  if (facts.torchVersion) out.push([label('torchVersion'), facts.torchVersion]);
  if (facts.flags.length) out.push([label('flags'), facts.flags.join(' ')]);
  if (facts.attention) out.push([label('attention'), ATTENTION_NAME[facts.attention]]);
  if (facts.dynamicVram !== undefined) out.push([label('dynamicVram'), t(facts.dynamicVram ? M.values.on : M.values.off, lang)]);
  if (facts.workflowWidth && facts.workflowHeight) {
    const frames = facts.workflowFrames ? `, ${facts.workflowFrames} ${t(M.values.frames, lang)}` : '';
    const tiled = facts.workflowTiledVae === undefined ? '' : `, ${t(facts.workflowTiledVae ? M.values.tiledVae : M.values.plainVae, lang)}`;
    out.push([label('workflow'), `${facts.workflowWidth}×${facts.workflowHeight} ×${facts.workflowBatch ?? 1}${frames}${tiled}`]);
  }
  if (facts.workflowModels?.length) out.push([label('workflowModels'), facts.workflowModels.join(', ')]);
  return out;
}

export function renderDiagnosis(d: Diagnosis, plan: Plan, lang: Lang): string {
  const out: string[] = [];
  const said = wording(d.entry, d.facts);
  out.push(labelled(t(M.diagnosis, lang), t(said.title, lang), lang));
  if (d.confidence < 0.6) out.push(t(M.lowConfidence, lang));
  if (d.truncated) out.push(t(M.truncated, lang));
  const otherApp = otherAppNote(d.facts, lang);
  if (otherApp) out.push(otherApp);
  out.push('', heading(t(M.whatHappened, lang), lang), t(said.cause, lang));
  const facts = describeFacts(d.facts, lang);
  if (facts.length) {
    out.push('', heading(t(M.whatTheLogSays, lang), lang));
    for (const [k, v] of facts) out.push(`  ${labelled(k, v, lang)}`);
  }
  if (d.evidence.length) {
    out.push('', heading(t(M.evidence, lang), lang));
    for (const e of d.evidence) out.push(`  L${e.line}: ${e.text.slice(0, 160)}`);
  }
  if (plan.steps.length) {
    out.push('', heading(t(M.plan, lang), lang));
    plan.steps.forEach((s, i) => {
      if (i === UP_FRONT) out.push('', heading(t(M.moreIdeas, lang), lang));
      const effort = labelled(t(M.effort, lang), t(M.effortLevel[s.effort], lang), lang);
      out.push('', `${i + 1}. ${t(s.title, lang)}${FULL_WIDTH.has(lang) ? '' : ' '}${aside(effort, lang)}`);
      out.push(`   ${t(s.text, lang).replace(/\n/g, '\n   ')}`);
      for (const n of s.notes) out.push(`   ! ${t(n, lang)}`);
      for (const snippet of s.snippets) {
        out.push(`   ${snippet.how ? labelled(t(snippet.label, lang), t(snippet.how, lang), lang) : heading(t(snippet.label, lang), lang)}`);
        if (snippet.code) out.push(...snippet.code.split('\n').map((l) => `     ${l}`));
      }
      out.push(`   ${labelled(t(M.why, lang), t(s.why, lang), lang)}`);
      out.push(`   ${labelled(t(M.verify, lang), t(s.verify, lang), lang)}`);
    });
  }
  if (plan.skipped.length) {
    out.push('', heading(t(M.skipped, lang), lang));
    for (const s of plan.skipped) out.push(`  - ${t(s.title, lang)} (${t(SKIP_REASON[s.reason], lang)})`);
  }
  out.push('', heading(t(M.sources, lang), lang));
  for (const s of d.entry.sources) out.push(`  - ${s.title}: ${s.url}`);
  return out.join('\n');
}
