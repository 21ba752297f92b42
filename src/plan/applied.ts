// Whether a log pasted while a step is on screen shows that the step never took effect: ComfyUI
// refused a flag, the launch line the log shows lacks the flag the step adds, or the step's own
// no-effect condition holds (a setting PyTorch ignores, a flag Dynamic VRAM makes moot).
import type { Facts } from '../classify/facts/types.ts';
import { evaluate } from '../classify/conditions.ts';
import type { Kb } from '../kb/load.ts';

export function couldNotApply(stepId: string, facts: Facts, kb: Pick<Kb, 'steps'>): boolean {
  const step = kb.steps.get(stepId);
  if (!step) return false;
  if (step.noEffectIf && evaluate(step.noEffectIf, facts).truth === true) return true;
  const launches = step.do.flatMap((v) => (v.launch ? [v.launch] : []));
  if (!launches.length) return false;
  // ComfyUI did not start, so no launch change could have been tried.
  if (facts.rejectedFlags?.length) return true;
  const added = launches.flatMap((l) => l.add.filter((t) => t.startsWith('--')));
  return facts.launchArgs !== undefined && added.length > 0 && !added.some((f) => facts.flags.includes(f));
}
