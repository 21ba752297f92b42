// What moves an open case on: its buttons pressed, its question answered, a new log or words typed
// into it.
import type { Facts } from '../classify/facts/types.ts';
import type { Lang } from '../i18n/messages.ts';
import { couldNotApply } from '../plan/applied.ts';
import type { Stored } from '../store/cases.ts';
import type { Cases } from './cases.ts';
import type { Context } from './context.ts';
import { step, type Command, type Record as CaseRecord, type Reply } from './machine.ts';
import { langOf, placed, type Origin } from './origin.ts';
import { nextQuestion, readTyped, withAnswer, type Clarification } from './questions.ts';
import { isErrorShaped, type Reader } from './reader.ts';
import { parseButtonId, type Message } from './render.ts';
import { isSentence, pressesFor } from './replies.ts';
import { C } from './strings.ts';

function looksBinary(text: string): boolean {
  const sample = text.slice(0, 4096);
  if (sample.includes('\u0000')) return true;
  const control = sample.match(/[\u0001-\u0008\u000e-\u001f\ufffd]/g)?.length ?? 0;
  return sample.length > 0 && control / sample.length > 0.1;
}

/** A problem with the paste itself, answered before any case exists. */
export function checkPaste(text: string, lang: Lang): Message | undefined {
  if (!text.trim()) return { ephemeral: true, blocks: [{ kind: 'text', text: C.emptyPaste[lang] }] };
  if (looksBinary(text)) return { ephemeral: true, blocks: [{ kind: 'text', text: C.binaryPaste[lang] }] };
  return undefined;
}

export class Answers {
  constructor(
    private readonly ctx: Context,
    private readonly cases: Cases,
    private readonly reader: Reader,
  ) {}

  async press(buttonId: string, origin: Origin): Promise<Message[]> {
    origin = await placed(this.ctx.settings, origin);
    const choice = parseButtonId(buttonId);
    const found = choice && (await this.ctx.store.get(choice.caseId));
    if (!choice || !found) {
      const lang = langOf(origin, '');
      return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.rejected.unexpected[lang] }] }];
    }
    if ('show' in choice) return this.showCurrent(found, origin);
    if ('question' in choice) return this.clarify(found, choice.offer, { question: choice.question, choice: choice.choice }, origin);
    if ('doubt' in choice) return this.doubt(found, choice.offer, origin);
    const who = { at: this.ctx.now(), actor: origin.user, moderator: origin.moderator ?? false };
    const command: Command = 'action' in choice ? { kind: 'action', offer: choice.offer, action: choice.action, ...who } : { kind: 'reason', offer: choice.offer, reason: choice.reason, ...who };
    return this.cases.apply(found, command);
  }

  /**
   * "That's not my problem" (pressed on diagnosis number `diagnosis`, or typed): the question that
   * could tell the case apart, when one is left, else the whole log.
   */
  private async doubt(found: Stored, diagnosis: number, origin: Origin): Promise<Message[]> {
    const question = nextQuestion(JSON.parse(found.row.facts) as Facts, found.state.clarified, this.reader.judge);
    const who = { at: this.ctx.now(), actor: origin.user, moderator: origin.moderator ?? false };
    return this.cases.apply(found, { kind: 'doubt', diagnosis, ...who, ...(question ? { question } : {}) });
  }

  /** "Show current step": for the owner and moderators in the case's thread, for anyone else privately. */
  private async showCurrent(found: Stored, origin: Origin): Promise<Message[]> {
    const out = await this.cases.current(found.state.caseId);
    return found.state.owner === origin.user || origin.moderator ? out : out.map((m) => ({ ...m, ephemeral: true }));
  }

  async answersQuestion(caseId: string, text: string): Promise<boolean> {
    const s = await this.cases.state(caseId);
    return s?.awaiting === 'question' && !!s.question && readTyped(s.question, text, this.reader.stages) !== undefined;
  }

  /**
   * An answer to the question before the first step: its fact joins the case's facts, the kb's
   * rules decide the entry again, and the machine records it (or refuses a stale or stranger's
   * answer). The stored facts and diagnosis change with the record, in the same transaction.
   */
  private async clarify(found: Stored, offer: number, answer: Clarification, origin: Origin): Promise<Message[]> {
    const { row, state } = found;
    const facts = withAnswer(JSON.parse(row.facts) as Facts, answer);
    const c = this.reader.planned(this.reader.judge(facts));
    // Only an open question has a follow-up; anything else is refused by the machine below.
    const next = state.awaiting === 'question' ? nextQuestion(facts, [...state.clarified, answer.question], this.reader.judge) : undefined;
    const t = step(state, {
      kind: 'clarify',
      at: this.ctx.now(),
      actor: origin.user,
      moderator: origin.moderator ?? false,
      offer,
      question: answer.question,
      choice: answer.choice,
      ...(answer.typed ? { typed: true as const } : {}),
      ...(answer.node ? { node: answer.node.name } : {}),
      plan: await this.cases.ordered(c, state.caseId, state.offer),
      ...(next ? { next } : {}),
    });
    const after = t.state ?? state;
    const accepted = t.records.some((r) => r.type === 'clarified');
    const diagnosis = accepted ? { category: c.diagnosis.category, entry: c.diagnosis.entry.id, facts } : undefined;
    if (!(await this.ctx.store.append(state.caseId, t.records, after, { seq: found.seq, ...(diagnosis ? { diagnosis } : {}) }))) return this.cases.again(state.caseId, (f) => this.clarify(f, offer, answer, origin));
    return this.cases.render(t.replies, after);
  }

  async paste(caseId: string, text: string, origin: Origin): Promise<Message[]> {
    origin = await placed(this.ctx.settings, origin);
    const found = await this.ctx.store.get(caseId);
    if (!found) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.rejected.unexpected[langOf(origin, text)] }] }];
    const problem = checkPaste(text, found.state.lang);
    if (problem) return [problem];
    // Words in a case ("still OOM", "thanks, trying now") are an answer, not a log: only console
    // output may switch or resolve the plan. A sentence needs no classifying to know it.
    const c = isSentence(text) ? undefined : await this.reader.classify(text);
    const { state } = found;
    const asking = state.awaiting === 'question' ? state.question : undefined;
    if (!c || !isErrorShaped(c.diagnosis.facts)) {
      const typed = asking && readTyped(asking, text, this.reader.stages);
      if (typed) return this.clarify(found, state.offer, typed, origin);
      return this.answer(found, text, origin);
    }
    // While the question is open the new log replaces the first; it may leave a question of its own.
    const question = asking && nextQuestion(c.diagnosis.facts, state.clarified, this.reader.judge);
    const notApplied = !asking && state.status === 'open' && couldNotApply(state.plan.steps[state.index]!, c.diagnosis.facts, this.ctx.kb);
    const command: Command = {
      kind: 'log',
      at: this.ctx.now(),
      actor: origin.user,
      moderator: origin.moderator ?? false,
      plan: await this.cases.ordered(c, caseId, state.offer),
      oom: c.oom,
      ...(question ? { question } : {}),
      ...(notApplied ? { notApplied: true as const } : {}),
    };
    return this.cases.apply(found, command, c);
  }

  /**
   * A reply typed at the case's prompt: the buttons it stands for, pressed in turn and stored
   * together; the prompt again when it asks about the step or a log is still wanted; "did that fix
   * it?" when the words do not say.
   */
  private async answer(found: Stored, text: string, origin: Origin): Promise<Message[]> {
    const { state } = found;
    // A case closed for silence still takes its fix ("it worked", days later); the machine refuses the rest.
    if (state.status !== 'open' && state.status !== 'abandoned') return this.cases.current(state.caseId);
    const presses = pressesFor(this.reader.readReply(text), state.awaiting);
    if (presses === 'doubt') return this.doubt(found, state.diagnosis ?? 0, origin);
    if (presses === 'ask') return this.cases.render([{ type: 'ask_outcome', step: state.plan.steps[state.index]!, offer: state.offer }], state);
    if (presses === 'wait') return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.takeYourTime[state.lang] }] }];
    if (presses === 'show') {
      if (state.awaiting === 'question') {
        // Echoed redacted, and as code: a masked link or a mention in it stays inert wherever it is shown.
        const echo = (await this.ctx.work.storedPaste(text.trim().slice(0, 80))).replace(/[`\n]/g, ' ');
        return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.typedUnknown[state.lang].replace('{text}', `\`${echo}\``) }] }];
      }
      if (state.awaiting === 'log') return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.notALog[state.lang] }] }];
      return this.cases.current(state.caseId);
    }
    let now = state;
    const records: CaseRecord[] = [];
    let replies: Reply[] = [];
    for (const press of presses) {
      const who = { at: this.ctx.now(), actor: origin.user, moderator: origin.moderator ?? false, offer: now.offer };
      const t = step(now, 'action' in press ? { kind: 'action', action: press.action, ...who } : { kind: 'reason', reason: press.reason, ...who });
      records.push(...t.records);
      replies = t.replies;
      now = t.state ?? now;
      if (!t.records.length) break; // refused (stale, closed): the rest would be too
    }
    if (records.length && !(await this.ctx.store.append(state.caseId, records, now, { seq: found.seq }))) return this.cases.again(state.caseId, (f) => this.answer(f, text, origin));
    return this.cases.render(replies, now);
  }
}
