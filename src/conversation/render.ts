// Everything a user sees, decided once: the machine's replies become platform-neutral messages
// (text blocks, buttons, files) in the user's language. Adapters only translate these.
import type { Diagnosis } from '../classify/classify.ts';
import { wording } from '../classify/wording.ts';
import type { Kb } from '../kb/load.ts';
import { aside, labelled, listed, M, t, type Lang } from '../i18n/messages.ts';
import { describeFacts, otherAppNote } from '../render/diagnosis-text.ts';
import { UP_FRONT, type Plan, type PlannedStep } from '../plan/plan.ts';
import { POLICY, type StepsRecord } from '../learn/index.ts';
import type { Action, CaseState, Reason, Reply, Tried } from './machine.ts';
import { QUESTIONS, type Choice, type Question } from './questions.ts';
import { C } from './strings.ts';

export interface Block {
  kind: 'title' | 'text' | 'code' | 'fields' | 'note';
  text: string;
  fields?: [string, string][];
}

export interface Button {
  /** At most 100 characters; carries the case, the question it answers and the choice. */
  id: string;
  label: string;
  style: 'primary' | 'secondary' | 'success' | 'danger';
}

export interface Message {
  caseId?: string;
  /** Only the person who acted should see it (a refusal, a private note). */
  ephemeral?: boolean;
  blocks: Block[];
  buttons?: Button[];
  files?: { name: string; content: string }[];
  /** The hand-over when the steps run out: the one message that may notify the helpers. */
  pingHelpers?: true;
  /** Who the hand-over notifies there: the place's helper role (Discord) or user group (Slack). */
  helpers?: string;
  /** The diagnosis that opens a new case: adapters grow the case's thread from it. */
  opens?: true;
  /** Where the case this message points to runs, for the adapter to link to (its own link syntax). */
  goesOnIn?: { channel: string | null; thread: string };
}

const ACTION_CODES: Record<Action, string> = { worked: 'w', failed: 'f', skip: 's', newlog: 'n', stop: 'x' };
const REASON_CODES: Record<Reason, string> = { same: 'rs', different: 'rd', could_not_apply: 'ra' };

export type ButtonChoice = { caseId: string; offer: number } & ({ action: Action } | { reason: Reason } | { question: Question; choice: Choice } | { show: true } | { doubt: true });

/** Buttons that are not about a step: open one's own case from a draft, confirm or cancel forgetting. */
export const DRAFT_PREFIX = 'coomd:';
export const FORGET_PREFIX = 'coomf:';
/** "Show current step": valid whatever the case's offer, so it stays on every message of the case. */
const SHOW_CODE = 'c';
/** "That's not my problem": carries the number of the diagnosis it doubts where others carry an offer. */
const DOUBT_CODE = 'm';

export const buttonId = (caseId: string, offer: number, code: string) => `coom:${caseId}:${offer}:${code}`;

/** Parses a button id back; undefined for ids that are not ours or are malformed. */
export function parseButtonId(id: string): ButtonChoice | undefined {
  const m = /^coom:([A-Za-z0-9_-]{1,40}):(\d{1,9}):([a-z]{1,2})$/.exec(id);
  if (!m) return undefined;
  const [, caseId, offer, code] = m as unknown as [string, string, string, string];
  if (code === SHOW_CODE) return { caseId, offer: Number(offer), show: true };
  if (code === DOUBT_CODE) return { caseId, offer: Number(offer), doubt: true };
  const action = (Object.keys(ACTION_CODES) as Action[]).find((a) => ACTION_CODES[a] === code);
  if (action) return { caseId, offer: Number(offer), action };
  const reason = (Object.keys(REASON_CODES) as Reason[]).find((r) => REASON_CODES[r] === code);
  if (reason) return { caseId, offer: Number(offer), reason };
  for (const question of Object.keys(QUESTIONS) as Question[]) {
    const hit = QUESTIONS[question].choices.find((c) => c.code === code);
    if (hit) return { caseId, offer: Number(offer), question, choice: hit.choice };
  }
  return undefined;
}

function stepButtons(caseId: string, offer: number, lang: Lang): Button[] {
  return [
    { id: buttonId(caseId, offer, 'w'), label: t(C.buttons.worked, lang), style: 'success' },
    { id: buttonId(caseId, offer, 'f'), label: t(C.buttons.failed, lang), style: 'danger' },
    { id: buttonId(caseId, offer, 's'), label: t(C.buttons.skip, lang), style: 'secondary' },
    { id: buttonId(caseId, offer, 'n'), label: t(C.buttons.newlog, lang), style: 'secondary' },
    stopButton(caseId, offer, lang),
  ];
}

/** On every prompt of an open case: a user may leave at a question as well as at a step. */
const stopButton = (caseId: string, offer: number, lang: Lang): Button => ({ id: buttonId(caseId, offer, ACTION_CODES.stop), label: t(C.buttons.stop, lang), style: 'secondary' });

/**
 * Buttons that stand on their message whatever the case's place ("Show current step", "That's not my
 * problem" on a diagnosis): a message with only these carries none of the case's live answers.
 */
export const isStanding = (id: string) => {
  const choice = parseButtonId(id);
  return !!choice && ('show' in choice || 'doubt' in choice);
};

export const showButton = (caseId: string, lang: Lang): Button => ({ id: buttonId(caseId, 0, SHOW_CODE), label: t(C.buttons.showCurrent, lang), style: 'secondary' });

/** Every message of an open case carries "Show current step": the way back when a post went missing. */
export const withShowButton = (m: Message, lang: Lang): Message => (m.caseId ? { ...m, buttons: [...(m.buttons ?? []), showButton(m.caseId, lang)] } : m);

function reasonButtons(caseId: string, offer: number, lang: Lang): Button[] {
  return [
    { id: buttonId(caseId, offer, 'rs'), label: t(C.buttons.same, lang), style: 'primary' },
    { id: buttonId(caseId, offer, 'rd'), label: t(C.buttons.different, lang), style: 'primary' },
    { id: buttonId(caseId, offer, 'ra'), label: t(C.buttons.couldNotApply, lang), style: 'secondary' },
    stopButton(caseId, offer, lang),
  ];
}

function renderQuestion(state: CaseState, question: Question, offer: number): Message {
  const { caseId, lang } = state;
  const q = C.questions[question];
  return {
    caseId,
    blocks: [
      { kind: 'title', text: t(C.questionTitle, lang) },
      { kind: 'text', text: t(q.why, lang) },
      { kind: 'text', text: t(q.ask, lang) },
      ...(question === 'stage' ? [{ kind: 'note' as const, text: t(C.typeNodeHint, lang) }] : []),
    ],
    buttons: [
      ...QUESTIONS[question].choices.map((c): Button => ({
        id: buttonId(caseId, offer, c.code),
        label: t(C.choices[c.choice], lang),
        style: c.choice === 'unknown' ? 'secondary' : 'primary',
      })),
      stopButton(caseId, offer, lang),
    ],
  };
}

/** A diagnosis of an open case (number `diagnosis` of it) carries "That's not my problem". */
export function renderDiagnosisMessage(d: Diagnosis, plan: Plan, lang: Lang, of?: { caseId: string; diagnosis: number }): Message {
  const said = wording(d.entry, d.facts);
  const blocks: Block[] = [
    { kind: 'title', text: t(said.title, lang) },
    { kind: 'text', text: t(said.cause, lang) },
  ];
  const facts = describeFacts(d.facts, lang);
  if (facts.length) blocks.push({ kind: 'fields', text: t(M.whatTheLogSays, lang), fields: facts });
  const evidence = d.evidence.slice(0, 3).map((e) => e.text.slice(0, 200));
  if (evidence.length) blocks.push({ kind: 'code', text: evidence.join('\n') });
  // Only steps skipped because the user already has them are news; irrelevant ones are noise. The
  // category and the confidence are for moderators (stats, the CLI's --json), not users.
  const applied = plan.skipped.filter((s) => s.reason === 'already-applied');
  const notes = [...(d.truncated ? [t(M.truncated, lang)] : []), ...(applied.length ? [labelled(t(M.skipped, lang), listed(applied.map((s) => t(s.title, lang)), lang), lang)] : [])];
  if (notes.length) blocks.push({ kind: 'note', text: notes.join(' · ') });
  if (d.confidence < 0.6) blocks.push({ kind: 'note', text: t(M.lowConfidence, lang) });
  const otherApp = otherAppNote(d.facts, lang);
  if (otherApp) blocks.push({ kind: 'note', text: otherApp });
  if (!of) return { blocks };
  return { caseId: of.caseId, blocks, buttons: [{ id: buttonId(of.caseId, of.diagnosis, DOUBT_CODE), label: t(C.buttons.notMine, lang), style: 'secondary' }] };
}

/** "Step 2 of 5" among the steps planned up front; past them, "One more idea (1 of 9)". */
function stepPlace(index: number, total: number, lang: Lang): string {
  const [text, n, of] = index < UP_FRONT ? [C.stepOf, index + 1, Math.min(total, UP_FRONT)] : [C.moreIdeaOf, index + 1 - UP_FRONT, total - UP_FRONT];
  return t(text, lang).replace('{n}', String(n)).replace('{total}', String(of));
}

function renderStep(ctx: RenderContext, stepId: string, index: number, total: number, offer: number): Message {
  const { kb, state } = ctx;
  const lang = state.lang;
  const step = kb.steps.get(stepId);
  const planned = ctx.planned.get(stepId);
  const blocks: Block[] = [{ kind: 'title', text: labelled(stepPlace(index, total, lang), step ? t(step.title, lang) : stepId, lang) }];
  const record = ctx.learned?.steps.get(stepId);
  if (record && record.tried >= POLICY.showRateAfter) {
    const share = String(Math.round((record.fixed / record.tried) * 100));
    const assumed = record.assumed ? ` ${t(C.fixRateAssumed, lang).replace('{assumed}', String(record.assumed))}` : '';
    blocks.push({ kind: 'note', text: `${t(C.fixRate, lang).replace('{share}', share).replace('{tried}', String(record.tried))}${assumed}` });
  }
  if (planned) {
    blocks.push({ kind: 'text', text: t(planned.text, lang) });
    for (const n of planned.notes) blocks.push({ kind: 'note', text: t(n, lang) });
    for (const s of planned.snippets) {
      blocks.push({ kind: 'text', text: s.how ? labelled(t(s.label, lang), t(s.how, lang), lang) : t(s.label, lang) });
      if (s.code) blocks.push({ kind: 'code', text: s.code });
    }
  }
  if (step) {
    blocks.push({ kind: 'text', text: labelled(t(M.why, lang), t(step.why, lang), lang) });
    blocks.push({ kind: 'note', text: labelled(t(M.verify, lang), t(planned?.verify ?? step.verify, lang), lang) });
  }
  blocks.push({ kind: 'note', text: t(C.askResult, lang) });
  return { caseId: state.caseId, blocks, buttons: stepButtons(state.caseId, offer, lang) };
}

function triedLines(kb: Kb, tried: Tried[], lang: Lang): string {
  return tried
    .map((x) => {
      const title = kb.steps.get(x.step) ? t(kb.steps.get(x.step)!.title, lang) : x.step;
      const reason = x.reason ? t(C.reasons[x.reason], lang) : undefined;
      const answer = t(C.answers[x.answer], lang) + (reason ? aside(reason, lang) : '');
      return `- ${labelled(title, answer, lang)}`;
    })
    .join('\n');
}

/** The hand-over for human helpers when the plan runs out: facts, everything tried, the answers. */
export function escalationSummary(kb: Kb, state: CaseState, facts: [string, string][], lang: Lang): string {
  const entries = state.plans.map((p) => {
    const e = kb.entries.find((x) => x.id === p.entry);
    return e ? `${t(e.title, lang)} (${p.category})` : p.category;
  });
  return [
    `# ComfyOOM ${t(C.caseLabel, lang)} ${state.caseId}`,
    `${t(C.diagnosisLabel, lang)}: ${entries.join(' → ')}`,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    `${t(C.triedLabel, lang)}:`,
    triedLines(kb, state.tried, lang) || '-',
  ].join('\n');
}

export interface RenderContext {
  kb: Kb;
  state: CaseState;
  /** Where the case runs: the terminal has no channel of helpers to hand over to. */
  platform?: string;
  /** Facts of the case, for escalation summaries. */
  facts: [string, string][];
  /** The current plan's steps as tailored to the case's facts (variant text and commands). */
  planned: Map<string, PlannedStep>;
  /** The diagnosis of a newly pasted log, when there is one. */
  newDiagnosis?: { diagnosis: Diagnosis; plan: Plan };
  /** What users reported for the current plan's entry, and whether confirmed fixes reorder it. */
  learned?: StepsRecord;
}

export function renderReplies(replies: Reply[], ctx: RenderContext): Message[] {
  const { kb, state } = ctx;
  const lang = state.lang;
  const caseId = state.caseId;
  const out: Message[] = [];
  const stepTitle = (id: string) => (kb.steps.get(id) ? t(kb.steps.get(id)!.title, lang) : id);
  const ofCase = { caseId, diagnosis: state.diagnosis ?? 0 };
  for (const r of replies) {
    switch (r.type) {
      case 'step':
        out.push(renderStep(ctx, r.step, r.index, r.total, r.offer));
        break;
      case 'ask_reason':
        out.push({ caseId, blocks: [{ kind: 'text', text: t(C.askReason, lang) }], buttons: reasonButtons(caseId, r.offer, lang) });
        break;
      case 'ask_outcome':
        out.push({ caseId, blocks: [{ kind: 'text', text: t(C.askOutcome, lang).replace('{step}', stepTitle(r.step)) }], buttons: stepButtons(caseId, r.offer, lang) });
        break;
      case 'ask_log':
        out.push({ caseId, blocks: [{ kind: 'text', text: t(C.askLog, lang) }], buttons: [stopButton(caseId, r.offer, lang)] });
        break;
      case 'question':
        out.push(renderQuestion(state, r.question, r.offer));
        break;
      case 'clarified': {
        const answer = r.node ?? t(C.choices[r.choice], lang);
        const entry = r.replanned ? kb.entries.find((e) => e.id === r.replanned) : undefined;
        const said =
          r.choice === 'unknown' ? t(C.clarifiedUnknown, lang) : entry ? t(C.clarifiedReplanned, lang).replace('{entry}', t(entry.title, lang)) : t(C.clarified, lang);
        out.push({ caseId, blocks: [{ kind: 'text', text: said.replace('{answer}', answer) }] });
        break;
      }
      case 'rediagnosed':
        out.push({ caseId, blocks: [{ kind: 'text', text: t(r.doubted ? C.rediagnosedDoubted : C.rediagnosed, lang) }] });
        if (ctx.newDiagnosis) out.push(renderDiagnosisMessage(ctx.newDiagnosis.diagnosis, ctx.newDiagnosis.plan, lang, ofCase));
        break;
      case 'misdiagnosed':
        out.push({
          caseId,
          blocks: [{ kind: 'text', text: t(C.misdiagnosed, lang) }, ...(r.askLog ? [{ kind: 'text' as const, text: t(C.misdiagnosedAskLog, lang) }] : [])],
          ...(r.askLog ? { buttons: [stopButton(caseId, r.offer, lang)] } : {}),
        });
        break;
      case 'relabelled': {
        const entry = kb.entries.find((e) => e.id === r.entry);
        out.push({ caseId, ephemeral: true, blocks: [{ kind: 'text', text: t(C.relabelled, lang).replace('{entry}', entry ? t(entry.title, lang) : r.entry) }] });
        break;
      }
      case 'resolved':
        out.push({
          caseId,
          blocks: [
            { kind: 'text', text: t(r.resolution === 'confirmed' ? C.resolvedConfirmed : C.resolvedAssumed, lang).replace('{step}', stepTitle(r.step)) },
            ...(r.resolution === 'confirmed' && ctx.learned ? [{ kind: 'note' as const, text: recordedNote(ctx.learned, lang) }] : []),
            { kind: 'note', text: resolutionSummary(kb, state, r.step, lang) },
          ],
        });
        break;
      case 'not_applied': {
        out.push({ caseId, blocks: [{ kind: 'text', text: t(C.notApplied, lang).replace('{step}', stepTitle(r.step)) }] });
        // A log that is itself an explanation (a refused flag, an ignored setting) is shown with what its plan says of the flags.
        const explained = ctx.newDiagnosis && ctx.newDiagnosis.diagnosis.category === 'not_oom' ? ctx.newDiagnosis : undefined;
        if (explained) {
          const message: Message = { ...renderDiagnosisMessage(explained.diagnosis, explained.plan, lang), caseId };
          for (const n of explained.plan.steps[0]?.notes ?? []) message.blocks.push({ kind: 'note', text: t(n, lang) });
          out.push(message);
        }
        break;
      }
      case 'same_failure':
        out.push({ caseId, blocks: [{ kind: 'text', text: t(C.sameFailure, lang).replace('{step}', stepTitle(r.step)) }] });
        break;
      case 'progress': {
        const to = kb.entries.find((e) => e.id === r.to.entry);
        out.push({
          caseId,
          blocks: [{ kind: 'text', text: t(C.progress, lang).replace('{step}', stepTitle(r.credited)).replace('{entry}', to ? t(to.title, lang) : r.to.category) }],
        });
        if (ctx.newDiagnosis) out.push(renderDiagnosisMessage(ctx.newDiagnosis.diagnosis, ctx.newDiagnosis.plan, lang, ofCase));
        break;
      }
      case 'new_error':
        if (ctx.newDiagnosis) out.push({ ...renderDiagnosisMessage(ctx.newDiagnosis.diagnosis, ctx.newDiagnosis.plan, lang), caseId });
        break;
      case 'escalation': {
        const summary = escalationSummary(kb, state, ctx.facts, lang);
        out.push({
          caseId,
          blocks: [
            { kind: 'text', text: t(ctx.platform === 'terminal' ? C.escalatedTerminal : C.escalated, lang) },
            { kind: 'code', text: summary.slice(0, 1500) },
          ],
          files: [{ name: `comfyoom-${caseId}.md`, content: summary }],
          pingHelpers: true,
        });
        break;
      }
      case 'cancelled':
        out.push({ caseId, blocks: [{ kind: 'text', text: t(C.cancelled, lang) }] });
        break;
      case 'abandoned':
        out.push({ caseId, blocks: [{ kind: 'text', text: t(C.abandoned, lang) }] });
        break;
      case 'reminder': {
        const buttons = r.awaiting === 'answer' ? stepButtons(caseId, r.offer, lang) : r.awaiting === 'reason' ? reasonButtons(caseId, r.offer, lang) : [stopButton(caseId, r.offer, lang)];
        const text = r.awaiting === 'answer' ? t(C.reminder, lang).replace('{step}', stepTitle(r.step)) : t(C.reminderOther, lang);
        out.push({ caseId, blocks: [{ kind: 'text', text }], buttons });
        break;
      }
      case 'rejected': {
        const why = t(C.rejected[r.why], lang);
        const current = r.current
          ? ` ${t(C.currentStep, lang).replace('{place}', stepPlace(r.current.index, r.current.total, lang)).replace('{step}', stepTitle(r.current.step))}`
          : r.question
            ? ` ${t(C.currentQuestion, lang).replace('{question}', t(C.questions[r.question].ask, lang))}`
            : '';
        out.push({ caseId, ephemeral: true, blocks: [{ kind: 'text', text: why + current }] });
        break;
      }
    }
  }
  return state.status === 'open' ? out.map((m) => (m.ephemeral ? m : withShowButton(m, lang))) : out;
}

/** What a confirmed fix does for others: reorders their steps only where learning is (or will be) on. */
function recordedNote(learned: StepsRecord, lang: Lang): string {
  if (!learned.adapts) return t(C.recorded.stats, lang);
  if (learned.mode === 'on') return t(C.recorded.adapts, lang);
  return t(C.recorded.soon, lang).replace('{needed}', String(POLICY.autoOnConfirmed)).replace('{confirmed}', String(learned.confirmed));
}

/** The closing line of a resolved case: what was tried and which step fixed it. */
function resolutionSummary(kb: Kb, state: CaseState, fixed: string, lang: Lang): string {
  const title = (id: string) => (kb.steps.get(id) ? t(kb.steps.get(id)!.title, lang) : id);
  const before = state.tried.filter((x) => x.step !== fixed).map((x) => title(x.step));
  return t(C.resolutionSummary, lang)
    .replace('{fixed}', title(fixed))
    .replace('{tried}', before.length ? before.join('; ') : t(C.nothingBefore, lang));
}
