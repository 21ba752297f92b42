// The guided conversation as a pure function: (state, command) -> (state, replies, records).
// Commands are what people do (open a case, press a button, paste a new log) or the clock
// ticking; records are the facts worth keeping, and the state is nothing but those records
// folded together, so replaying a case's stored records rebuilds it exactly (event sourcing).
import type { Lang } from '../i18n/messages.ts';
import { evolve, type CaseState, type Choice, type PlanRef, type Question, type Reason, type Record, type Tried } from '../records/case.ts';

// The conversation's own words for the records it keeps (records/case.ts).
export { evolve, replay } from '../records/case.ts';
export type { Answer, CaseState, PlanOrder, PlanRef, Reason, Record, Status, Tried } from '../records/case.ts';

export type Action = 'worked' | 'failed' | 'skip' | 'newlog' | 'stop';

interface Actor {
  at: number;
  actor: string;
  moderator: boolean;
}

/**
 * The engine, which knows the kb, works out what each input means for the plan: `question` is
 * the one to ask when the log cannot tell; `plan` and `next` are what an answer leads to.
 */
export type Command =
  | { kind: 'open'; at: number; caseId: string; owner: string; lang: Lang; plan: PlanRef; question?: Question }
  | ({ kind: 'action'; offer: number; action: Action } & Actor)
  | ({ kind: 'reason'; offer: number; reason: Reason } & Actor)
  /** `notApplied`: the log shows the step on screen never took effect (ComfyUI refused its flag, PyTorch ignored it). */
  | ({ kind: 'log'; plan: PlanRef; oom: boolean; question?: Question; notApplied?: true } & Actor)
  | ({ kind: 'clarify'; offer: number; question: Question; choice: Choice; typed?: true; node?: string; plan: PlanRef; next?: Question } & Actor)
  /** "That's not my problem", about the diagnosis shown as number `diagnosis`; `question` is the one that could tell, if any. */
  | ({ kind: 'doubt'; diagnosis: number; question?: Question } & Actor)
  /** A moderator names the entry the case really was. */
  | ({ kind: 'relabel'; entry: string } & Actor)
  | { kind: 'tick'; at: number; idleMs: number };

export type Reply =
  | { type: 'step'; step: string; index: number; total: number; offer: number }
  /** The engine's, never the machine's: a typed reply that does not say whether the step worked. */
  | { type: 'ask_outcome'; step: string; offer: number }
  | { type: 'ask_reason'; step: string; offer: number }
  | { type: 'ask_log'; step: string; offer: number }
  | { type: 'question'; question: Question; offer: number }
  /** `replanned` names the new entry when the answer changed the plan and its steps follow. */
  | { type: 'clarified'; choice: Choice; node?: string; replanned?: string }
  /** A log pasted while the question was open (or the diagnosis doubted): it tells more, and its plan replaces the first. */
  | { type: 'rediagnosed'; entry: string; doubted?: true }
  /** "That's not my problem" taken: a question follows, or (`askLog`) the whole log is asked for. */
  | { type: 'misdiagnosed'; askLog: boolean; offer: number }
  | { type: 'relabelled'; entry: string }
  | { type: 'resolved'; step: string; resolution: 'confirmed' | 'assumed' }
  | { type: 'same_failure'; step: string }
  /** The new log shows the step never took effect; `entry` is what the log itself is. */
  | { type: 'not_applied'; step: string; entry: string }
  | { type: 'progress'; credited: string; from: PlanRef; to: PlanRef }
  | { type: 'new_error'; entry: string }
  | { type: 'escalation'; tried: Tried[]; plans: PlanRef[] }
  | { type: 'cancelled' }
  | { type: 'abandoned' }
  /** Halfway to the idle close: the prompt again, once, with when the case will close. */
  | { type: 'reminder'; step: string; offer: number; awaiting: CaseState['awaiting'] }
  | { type: 'rejected'; why: 'not_owner' | 'not_moderator' | 'stale' | 'closed' | 'unexpected'; current?: { step: string; index: number; total: number }; question?: Question };

export interface Transition {
  state: CaseState | undefined;
  replies: Reply[];
  records: Record[];
}

export const isClosed = (s: CaseState) => s.status !== 'open';

/** A silent case is reminded once, this far into its idle time; it closes at the end of it. */
export const REMIND_AFTER = 0.5;

/** Whether a tick at `at` closes an open case for silence (the sweep says so to its log). */
export const idleCloses = (s: CaseState, at: number, idleMs: number) => !isClosed(s) && at - s.lastActivity >= idleMs;

const currentStep = (s: CaseState) => s.plan.steps[s.index]!;

/** Offers the first step at or after `from` that this case has not tried yet, or escalates. */
function offerFrom(s: CaseState, from: number, at: number): { records: Record[]; replies: Reply[] } {
  const done = new Set(s.tried.map((t) => t.step));
  for (let i = from; i < s.plan.steps.length; i++) {
    const step = s.plan.steps[i]!;
    if (done.has(step)) continue;
    const offer = s.offer + 1;
    return {
      records: [{ type: 'offered', at, step, index: i, offer }],
      replies: [{ type: 'step', step, index: i, total: s.plan.steps.length, offer }],
    };
  }
  return { records: [{ type: 'escalated', at }], replies: [{ type: 'escalation', tried: s.tried, plans: s.plans }] };
}

function ask(s: CaseState, question: Question, at: number): { records: Record[]; replies: Reply[] } {
  const offer = s.offer + 1;
  return { records: [{ type: 'asked', at, question, offer }], replies: [{ type: 'question', question, offer }] };
}

/** What the case waits for, for a refusal to repeat. */
const pending = (s: CaseState) =>
  s.awaiting === 'question' && s.question ? { question: s.question } : { current: { step: currentStep(s), index: s.index, total: s.plan.steps.length } };

/** Decides what a command means for a case: the records to keep and the replies to show. */
export function decide(s: CaseState | undefined, c: Command): { records: Record[]; replies: Reply[] } {
  const none = (why: Extract<Reply, { type: 'rejected' }>['why']) => ({
    records: [],
    replies: [{ type: 'rejected' as const, why, ...(s && !isClosed(s) ? pending(s) : {}) }],
  });

  if (c.kind === 'open') {
    if (s) return none('unexpected');
    const opened: Record = { type: 'opened', at: c.at, caseId: c.caseId, owner: c.owner, lang: c.lang, plan: c.plan };
    const state = evolve(undefined, opened)!;
    const first = c.question ? ask(state, c.question, c.at) : offerFrom(state, 0, c.at);
    return { records: [opened, ...first.records], replies: first.replies };
  }
  if (!s) return none('unexpected');
  if (c.kind === 'tick') {
    const idle = c.at - s.lastActivity;
    if (isClosed(s) || idle < c.idleMs * REMIND_AFTER) return { records: [], replies: [] };
    if (!idleCloses(s, c.at, c.idleMs)) {
      if (s.reminded) return { records: [], replies: [] };
      return { records: [{ type: 'reminded', at: c.at }], replies: [{ type: 'reminder', step: currentStep(s), offer: s.offer, awaiting: s.awaiting }] };
    }
    return { records: [{ type: 'abandoned', at: c.at }], replies: [{ type: 'abandoned' }] };
  }
  if (c.kind === 'relabel') {
    // A correction for stats and learning, open case or closed: the conversation goes on as it was.
    if (!c.moderator) return none('not_moderator');
    return { records: [{ type: 'relabelled', at: c.at, entry: c.entry, by: c.actor }], replies: [{ type: 'relabelled', entry: c.entry }] };
  }
  // Closed for silence, not by anyone: "Worked" on the step last shown is still the fix it was.
  const lateFix = s.status === 'abandoned' && c.kind === 'action' && c.action === 'worked' && c.offer === s.offer && s.awaiting === 'answer';
  if (isClosed(s) && !lateFix) return none('closed');
  if (c.actor !== s.owner && !c.moderator) return none('not_owner');
  const step = currentStep(s);

  if (c.kind === 'action') {
    // Stop ends the case from any prompt of the current offer; the rest answer a step.
    if (c.offer !== s.offer || (s.awaiting !== 'answer' && c.action !== 'stop')) return none('stale');
    switch (c.action) {
      case 'worked':
        return {
          records: [
            { type: 'answered', at: c.at, step, answer: 'worked' },
            { type: 'resolved', at: c.at, step, resolution: 'confirmed' },
          ],
          replies: [{ type: 'resolved', step, resolution: 'confirmed' }],
        };
      case 'failed':
        return { records: [{ type: 'asked_reason', at: c.at, step, offer: s.offer + 1 }], replies: [{ type: 'ask_reason', step, offer: s.offer + 1 }] };
      case 'skip': {
        const answered: Record = { type: 'answered', at: c.at, step, answer: 'skipped' };
        const next = offerFrom(evolve(s, answered)!, s.index + 1, c.at);
        return { records: [answered, ...next.records], replies: next.replies };
      }
      case 'newlog':
        return { records: [{ type: 'asked_log', at: c.at, step, offer: s.offer + 1 }], replies: [{ type: 'ask_log', step, offer: s.offer + 1 }] };
      case 'stop':
        return { records: [{ type: 'cancelled', at: c.at }], replies: [{ type: 'cancelled' }] };
    }
  }

  if (c.kind === 'doubt') {
    // Only the diagnosis on screen can be doubted, once: an older one's button, or a second press, is stale.
    if (c.diagnosis !== (s.diagnosis ?? 0) || s.doubted) return none('stale');
    const offer = s.offer + 1;
    const doubted: Record = { type: 'misdiagnosed', at: c.at, entry: s.plan.entry };
    const follow: Record = c.question ? { type: 'asked', at: c.at, question: c.question, offer } : { type: 'asked_log', at: c.at, step, offer };
    return {
      records: [doubted, follow],
      replies: [{ type: 'misdiagnosed', askLog: !c.question, offer }, ...(c.question ? [{ type: 'question' as const, question: c.question, offer }] : [])],
    };
  }

  if (c.kind === 'reason') {
    if (c.offer !== s.offer || s.awaiting !== 'reason') return none('stale');
    const answered: Record = { type: 'answered', at: c.at, step, answer: 'failed', reason: c.reason };
    if (c.reason === 'different') {
      // The step changed the failure: the new log decides whether it moved things forward.
      const ask: Record = { type: 'asked_log', at: c.at, step, offer: s.offer + 1 };
      return { records: [answered, ask], replies: [{ type: 'ask_log', step, offer: s.offer + 1 }] };
    }
    const next = offerFrom(evolve(s, answered)!, s.index + 1, c.at);
    return { records: [answered, ...next.records], replies: next.replies };
  }

  if (c.kind === 'clarify') {
    if (s.awaiting !== 'question' || c.offer !== s.offer || c.question !== s.question) return none('stale');
    const clarified: Record = { type: 'clarified', at: c.at, question: c.question, choice: c.choice, ...(c.typed ? { typed: true } : {}), ...(c.node ? { node: c.node } : {}), plan: c.plan };
    const after = evolve(s, clarified)!;
    const follow = c.next && !after.clarified.includes(c.next) ? ask(after, c.next, c.at) : offerFrom(after, 0, c.at);
    const replanned = !c.next && c.plan.entry !== s.plan.entry ? { replanned: c.plan.entry } : {};
    return {
      records: [clarified, ...follow.records],
      replies: [{ type: 'clarified', choice: c.choice, ...(c.node ? { node: c.node } : {}), ...replanned }, ...follow.replies],
    };
  }

  if (s.awaiting === 'question' || s.doubted) {
    // Nothing has been tried yet, or the plan was for another problem, so the new log needs no
    // credit: what it shows replaces what the first one could not tell (or told wrong), and its
    // own open question (if any) is asked instead.
    const pasted: Record = { type: 'log_pasted', at: c.at, entry: c.plan.entry, category: c.plan.category, oom: c.oom, same: c.oom && c.plan.category === s.plan.category };
    const replanned: Record = { type: 'replanned', at: c.at, plan: c.plan };
    const after = evolve(evolve(s, pasted), replanned)!;
    const follow = c.question && !s.clarified.includes(c.question) ? ask(after, c.question, c.at) : offerFrom(after, 0, c.at);
    return { records: [pasted, replanned, ...follow.records], replies: [{ type: 'rediagnosed', entry: c.plan.entry, ...(s.doubted ? { doubted: true as const } : {}) }, ...follow.replies] };
  }

  // A new log, pasted at any point of an open case.
  const same = c.oom && c.plan.category === s.plan.category;
  const pasted: Record = { type: 'log_pasted', at: c.at, entry: c.plan.entry, category: c.plan.category, oom: c.oom, same };
  const answeredHere = s.tried.some((t) => t.step === step && t.entry === s.plan.entry);
  if (c.notApplied) {
    // Not "still failing": the step was never tried, so it neither failed nor fixed anything.
    const couldNot: Record[] = answeredHere ? [] : [{ type: 'answered', at: c.at, step, answer: 'failed', reason: 'could_not_apply' }];
    const after = couldNot.reduce<CaseState | undefined>(evolve, evolve(s, pasted))!;
    const next = offerFrom(after, s.index + 1, c.at);
    return { records: [pasted, ...couldNot, ...next.records], replies: [{ type: 'not_applied', step, entry: c.plan.entry }, ...next.replies] };
  }
  if (!c.oom) {
    // No longer out of memory: the step on screen got past it (assumed, not confirmed).
    return {
      records: [pasted, { type: 'resolved', at: c.at, step, resolution: 'assumed' }],
      replies: [
        { type: 'resolved', step, resolution: 'assumed' },
        { type: 'new_error', entry: c.plan.entry },
      ],
    };
  }
  if (same) {
    const failed: Record[] = answeredHere ? [] : [{ type: 'answered', at: c.at, step, answer: 'failed', reason: 'same' }];
    const after = failed.reduce<CaseState | undefined>(evolve, evolve(s, pasted))!;
    const next = offerFrom(after, s.index + 1, c.at);
    return { records: [pasted, ...failed, ...next.records], replies: [{ type: 'same_failure', step }, ...next.replies] };
  }
  // A different memory failure (say sampling passes and VAE decode fails now): progress.
  const switched: Record = { type: 'plan_switched', at: c.at, credited: step, plan: c.plan };
  const after = evolve(evolve(s, pasted), switched)!;
  const next = offerFrom(after, 0, c.at);
  return {
    records: [pasted, switched, ...next.records],
    replies: [{ type: 'progress', credited: step, from: s.plan, to: c.plan }, ...next.replies],
  };
}

export function step(s: CaseState | undefined, c: Command): Transition {
  const { records, replies } = decide(s, c);
  return { state: records.reduce(evolve, s), replies, records };
}
