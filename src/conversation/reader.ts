// What users send, read against the kb: pastes diagnosed and planned (each read once), and the
// kb's rules for the facts and the words they add to a case later.
import { createJudge, type Diagnosis, type Judge } from '../classify/classify.ts';
import { compileStages, type CompiledStages } from '../classify/facts/stage.ts';
import type { Facts } from '../classify/facts/types.ts';
import { planSteps, type Plan } from '../plan/plan.ts';
import { paced, type Context } from './context.ts';
import type { PlanRef } from './machine.ts';
import { replyReader, type ReplyReader } from './replies.ts';

export interface Classified {
  diagnosis: Diagnosis;
  plan: Plan;
  ref: PlanRef;
  oom: boolean;
}

export const isErrorShaped = (f: Facts) => !!(f.oom || f.exception || f.primarySignature || f.signatures.some((id) => id !== 'silent_exit'));

export class Reader {
  /** The kb's rules over facts, to re-decide a case from facts a user's answer adds. */
  readonly judge: Judge;
  readonly stages: CompiledStages;
  readonly readReply: ReplyReader;
  private last?: { text: string; diagnosis: Promise<Diagnosis> };

  constructor(private readonly ctx: Context) {
    this.judge = createJudge(ctx.kb);
    this.stages = compileStages(ctx.kb.stages);
    this.readReply = replyReader(ctx.kb.replies);
  }

  /**
   * The classifier, remembering its last answer: adapters ask `looksLikeLog` and the OCR gate
   * checks a screenshot before the same text is diagnosed for real, so each paste is read once.
   */
  diagnose(text: string): Promise<Diagnosis> {
    if (this.last?.text !== text) this.last = { text, diagnosis: paced(this.ctx.pace, this.ctx.work.classify(text)) };
    return this.last.diagnosis;
  }

  async classify(text: string): Promise<Classified> {
    return this.planned(await this.diagnose(text));
  }

  planned(diagnosis: Diagnosis): Classified {
    const plan = planSteps(diagnosis.entry, diagnosis.facts, this.ctx.kb);
    return {
      diagnosis,
      plan,
      ref: { entry: diagnosis.entry.id, category: diagnosis.category, steps: plan.steps.map((s) => s.id) },
      oom: diagnosis.category !== 'not_oom',
    };
  }
}
