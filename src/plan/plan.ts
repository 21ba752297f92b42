// Tailors an entry's ordered steps to one user's facts: drops what cannot help them (a flag they
// already use, --lowvram under dynamic VRAM, a newer-only flag on an old build) and picks the
// variant of each step that fits their OS, vendor and card.
import type { Kb } from '../kb/load.ts';
import type { Entry, Step, Text } from '../kb/schema.ts';
import { evaluate } from '../classify/conditions.ts';
import type { Facts } from '../classify/facts/types.ts';

export interface PlannedStep {
  id: string;
  title: Text;
  why: Text;
  text: Text;
  portable?: string;
  manual?: string;
  verify: Text;
  effort: Step['effort'];
  sources: Step['sources'];
}

export interface SkippedStep {
  id: string;
  title: Text;
  reason: 'already-applied' | 'does-not-apply';
}

export interface Plan {
  steps: PlannedStep[];
  skipped: SkippedStep[];
}

const PLACEHOLDER = /\{(\w{1,40})\}/g;
const factValue = (facts: Facts, name: string): string | undefined => {
  const v = (facts as unknown as Record<string, unknown>)[name];
  return typeof v === 'number' || typeof v === 'string' ? String(v) : Array.isArray(v) && v.length ? v.join(', ') : undefined;
};
const fillable = (text: Text, facts: Facts) => [...`${text.en} ${text.zh}`.matchAll(PLACEHOLDER)].every((m) => factValue(facts, m[1]!) !== undefined);
/** Step texts may quote the user's own numbers: "{workflowWidth}×{workflowHeight}". */
const fill = (text: string, facts: Facts) => text.replace(PLACEHOLDER, (m, name: string) => factValue(facts, name) ?? m);

export function planSteps(entry: Entry, facts: Facts, kb: Pick<Kb, 'steps'>): Plan {
  const plan: Plan = { steps: [], skipped: [] };
  for (const id of entry.steps) {
    const step = kb.steps.get(id);
    if (!step) continue; // the loader guarantees references; a hot-reloaded kb may not
    if (step.skipIf && evaluate(step.skipIf, facts).truth === true) {
      plan.skipped.push({ id, title: step.title, reason: 'already-applied' });
      continue;
    }
    if (step.onlyIf && evaluate(step.onlyIf, facts).truth === false) {
      plan.skipped.push({ id, title: step.title, reason: 'does-not-apply' });
      continue;
    }
    // The first variant that holds and whose {fact} placeholders can all be filled.
    const variant =
      step.do.find((v) => v.when && evaluate(v.when, facts).truth === true && fillable(v.text, facts)) ??
      step.do.filter((v) => fillable(v.text, facts)).at(-1) ??
      step.do.at(-1)!;
    plan.steps.push({
      id,
      title: step.title,
      why: step.why,
      text: { en: fill(variant.text.en, facts), zh: fill(variant.text.zh, facts) },
      ...(variant.portable ? { portable: variant.portable } : {}),
      ...(variant.manual ? { manual: variant.manual } : {}),
      verify: step.verify,
      effort: step.effort,
      sources: step.sources,
    });
  }
  return plan;
}
