// The records a case is made of, as stored, and the state they fold into: a case's state is
// nothing but its records folded together, so replaying them rebuilds it exactly (event
// sourcing). Below both the conversation, which decides which records a command makes
// (conversation/machine.ts), and the store, which keeps them.
import type { Lang } from '../i18n/messages.ts';

/**
 * The questions put before the first step when the log cannot tell, and each one's answers in the
 * order shown; what they mean is conversation/questions.ts's. Stats count answers by these ids.
 */
export const QUESTION_CHOICES = {
  vendor: ['nvidia', 'amd', 'unknown'],
  stage: ['sampling', 'vae', 'loader', 'other', 'unknown'],
} as const;
export type Question = keyof typeof QUESTION_CHOICES;
export type Choice = (typeof QUESTION_CHOICES)[Question][number];

export type Answer = 'worked' | 'failed' | 'skipped';
export type Reason = 'same' | 'different' | 'could_not_apply';
export type Status = 'open' | 'resolved' | 'escalated' | 'abandoned' | 'cancelled';

/** What the classifier and the planner said about a paste, as the conversation needs it. */
export interface PlanRef {
  entry: string;
  category: string;
  steps: string[];
  /** How `steps` were ordered (src/learn), kept with the case so its order is known later. Absent on plans from before learning. */
  order?: PlanOrder;
}

export interface PlanOrder {
  /** The setup the order was chosen for, and its outcomes are counted under: VRAM tier, OS, backend, dynamic VRAM. */
  context: string;
  /** Whose order the user was given: the kb's, or the one learned from recorded outcomes. */
  by: 'kb' | 'learned';
  /** The draw's seed: the same seed over the same counts gives the same order. */
  seed: number;
  /** In suggest mode, the learned order the user was not given (when it differs from the kb's). */
  suggested?: string[];
}

export interface Tried {
  entry: string;
  step: string;
  answer: Answer;
  reason?: Reason;
}

export interface CaseState {
  caseId: string;
  owner: string;
  lang: Lang;
  status: Status;
  /** What the open case waits for: an answer to the current step, why it failed, a new log, or the question before the first step. */
  awaiting: 'answer' | 'reason' | 'log' | 'question';
  /** The question put before the first step, while it waits for its answer. */
  question?: Question;
  /** Questions answered so far ("I don't know" included): none is put twice. */
  clarified: Question[];
  plan: PlanRef;
  index: number;
  /** Bumped by every new question; a button carries the offer it answers, so old ones go stale. */
  offer: number;
  tried: Tried[];
  plans: PlanRef[];
  resolvingStep?: string;
  resolution?: 'confirmed' | 'assumed';
  lastActivity: number;
  /** Reminded once of the open prompt since the last activity (the idle close comes after it). */
  reminded?: boolean;
  /** Diagnoses shown so far, less one: a "That's not my problem" button carries the one it doubts. */
  diagnosis?: number;
  /** The user said the diagnosis is not their problem: the next log replaces the plan, crediting nothing. */
  doubted?: true;
  /** A moderator's correction of the case's diagnosis (see src/records/outcomes.ts). */
  relabelled?: string;
}

export type Record =
  | { type: 'opened'; at: number; caseId: string; owner: string; lang: Lang; plan: PlanRef }
  | { type: 'offered'; at: number; step: string; index: number; offer: number }
  | { type: 'asked_reason'; at: number; step: string; offer: number }
  | { type: 'asked_log'; at: number; step: string; offer: number }
  | { type: 'asked'; at: number; question: Question; offer: number }
  /** `typed` when written rather than pressed; `node` when what was written is a node's name. */
  | { type: 'clarified'; at: number; question: Question; choice: Choice; typed?: true; node?: string; plan: PlanRef }
  | { type: 'replanned'; at: number; plan: PlanRef }
  | { type: 'answered'; at: number; step: string; answer: Answer; reason?: Reason }
  | { type: 'log_pasted'; at: number; entry: string; category: string; oom: boolean; same: boolean }
  | { type: 'plan_switched'; at: number; credited: string; plan: PlanRef }
  /** The user said the diagnosis `entry` is not their problem. */
  | { type: 'misdiagnosed'; at: number; entry: string }
  /** A moderator said the case really was `entry` (`by`: who). */
  | { type: 'relabelled'; at: number; entry: string; by: string }
  | { type: 'resolved'; at: number; step: string; resolution: 'confirmed' | 'assumed' }
  | { type: 'escalated'; at: number }
  | { type: 'reminded'; at: number }
  | { type: 'abandoned'; at: number }
  | { type: 'cancelled'; at: number };

/** Folds one record into the state. Total and pure: replaying records rebuilds any state. */
export function evolve(s: CaseState | undefined, r: Record): CaseState | undefined {
  if (r.type === 'opened') {
    return {
      caseId: r.caseId,
      owner: r.owner,
      lang: r.lang,
      status: 'open',
      awaiting: 'answer',
      plan: r.plan,
      index: 0,
      offer: 0,
      tried: [],
      plans: [r.plan],
      clarified: [],
      lastActivity: r.at,
    };
  }
  if (!s) return s;
  if (r.type === 'reminded') return { ...s, reminded: true }; // a reminder is not activity
  if (r.type === 'relabelled') return { ...s, relabelled: r.entry }; // nor is a moderator's correction
  const { reminded: _once, ...rest } = s;
  const next: CaseState = { ...rest, lastActivity: r.at };
  switch (r.type) {
    case 'offered':
      return { ...settled(next), awaiting: 'answer', index: r.index, offer: r.offer };
    case 'asked':
      return { ...next, awaiting: 'question', question: r.question, offer: r.offer };
    case 'clarified':
      return { ...replaceFirstPlan(settled(next), r.plan), clarified: [...s.clarified, r.question] };
    case 'replanned':
      return { ...replaceFirstPlan(settled(next), r.plan), diagnosis: (s.diagnosis ?? 0) + 1 };
    case 'misdiagnosed':
      return { ...next, doubted: true };
    case 'asked_reason':
      return { ...next, awaiting: 'reason', offer: r.offer };
    case 'asked_log':
      return { ...next, awaiting: 'log', offer: r.offer };
    case 'answered':
      return { ...next, tried: [...s.tried, { entry: s.plan.entry, step: r.step, answer: r.answer, ...(r.reason ? { reason: r.reason } : {}) }] };
    case 'log_pasted':
      return next;
    case 'plan_switched':
      return { ...next, plan: r.plan, index: 0, plans: [...s.plans, r.plan], diagnosis: (s.diagnosis ?? 0) + 1 };
    case 'resolved':
      return { ...next, status: 'resolved', resolvingStep: r.step, resolution: r.resolution };
    case 'escalated':
      return { ...next, status: 'escalated' };
    case 'abandoned':
      return { ...s, status: 'abandoned' }; // idleness is not activity
    case 'cancelled':
      return { ...next, status: 'cancelled' };
  }
}

/** The state without an open question or doubt (answered, or made moot by a new log). */
function settled(s: CaseState): CaseState {
  const { question: _done, doubted: _replaced, ...rest } = s;
  return rest;
}

/** Before the first step nothing was tried on the plan, so a better one replaces it rather than following it. */
const replaceFirstPlan = (s: CaseState, plan: PlanRef): CaseState => ({ ...s, plan, index: 0, plans: [...s.plans.slice(0, -1), plan] });

export const replay = (records: Record[]): CaseState | undefined => records.reduce<CaseState | undefined>(evolve, undefined);
