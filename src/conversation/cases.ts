// A case as the engine runs it: read from the store, moved on by the machine, stored in one
// transaction (decided again when another process moved it first), and rendered for its place.
import type { Facts } from '../classify/facts/types.ts';
import type { Text } from '../kb/schema.ts';
import { wording } from '../classify/wording.ts';
import { flagsApplied, planSteps } from '../plan/plan.ts';
import { seedOf } from '../learn/index.ts';
import { describeFacts } from '../render/diagnosis-text.ts';
import type { Stored } from '../store/cases.ts';
import type { Context } from './context.ts';
import { idleCloses, REMIND_AFTER, step, type CaseState, type Command, type PlanRef, type Reply } from './machine.ts';
import type { Origin } from './origin.ts';
import type { Classified } from './reader.ts';
import { renderReplies, type Message } from './render.ts';

export interface CasePlace {
  platform: string;
  server: string | null;
  channel: string | null;
  thread: string | null;
  owner: string;
}

/** A case the sweep moved on, and what to tell its owner. */
export interface Swept {
  caseId: string;
  messages: Message[];
  closed: boolean;
}

export class Cases {
  constructor(private readonly ctx: Context, private readonly idleMs: number) {}

  async state(caseId: string): Promise<CaseState | undefined> {
    return (await this.ctx.store.get(caseId))?.state;
  }

  async place(caseId: string): Promise<CasePlace | undefined> {
    const row = (await this.ctx.store.get(caseId))?.row;
    return row && { platform: row.platform, server: row.server, channel: row.channel, thread: row.thread, owner: row.user_id };
  }

  lastOpenCase(origin: Origin): Promise<string | undefined> {
    return this.ctx.store.lastOpen(origin.platform, origin.user, origin.channel);
  }

  async about(caseId: string): Promise<{ title: Text; openedAt: number } | undefined> {
    const found = await this.ctx.store.get(caseId);
    const entry = found && this.ctx.kb.entries.find((e) => e.id === found.state.plan.entry);
    return found && entry && { title: wording(entry, JSON.parse(found.row.facts) as Facts).title, openedAt: found.row.created_at };
  }

  async current(caseId: string): Promise<Message[]> {
    const found = await this.ctx.store.get(caseId);
    if (!found) return [];
    const s = found.state;
    if (s.status !== 'open') return this.render([{ type: 'rejected', why: 'closed' }], s);
    const stepId = s.plan.steps[s.index]!;
    const reply: Reply =
      s.awaiting === 'question' && s.question
        ? { type: 'question', question: s.question, offer: s.offer }
        : s.awaiting === 'answer'
          ? { type: 'step', step: stepId, index: s.index, total: s.plan.steps.length, offer: s.offer }
          : s.awaiting === 'reason'
            ? { type: 'ask_reason', step: stepId, offer: s.offer }
            : { type: 'ask_log', step: stepId, offer: s.offer };
    return this.render([reply], s);
  }

  async sweep(platforms: readonly string[]): Promise<Swept[]> {
    const at = this.ctx.now();
    const swept: Swept[] = [];
    // Halfway through their idle time, cases are reminded once (the machine decides which).
    for (const caseId of await this.ctx.store.idleOpen(at - this.idleMs * REMIND_AFTER, platforms)) {
      const found = await this.ctx.store.get(caseId);
      const messages = found ? await this.apply(found, { kind: 'tick', at, idleMs: this.idleMs }) : [];
      if (messages.length) swept.push({ caseId, messages, closed: idleCloses(found!.state, at, this.idleMs) });
    }
    return swept;
  }

  async withdraw(caseId: string): Promise<void> {
    const found = await this.ctx.store.get(caseId);
    if (!found || found.state.status !== 'open') return;
    const { state } = found;
    await this.apply(found, { kind: 'action', action: 'stop', offer: state.offer, at: this.ctx.now(), actor: state.owner, moderator: false });
  }

  async sourceDeleted(platform: string, source: string): Promise<{ channel: string | null; thread: string | null } | undefined> {
    const caseId = await this.ctx.store.fromSource(platform, source);
    const place = caseId ? await this.place(caseId) : undefined;
    if (!caseId || !place) return undefined;
    await this.withdraw(caseId);
    return { channel: place.channel, thread: place.thread };
  }

  /**
   * The plan in the order this case gets it (learned, or the kb's), with how it was chosen; the
   * seed is the case's and the decision's, so the same counts would give it the same order again.
   */
  async ordered(c: Classified, caseId: string, offer: number): Promise<PlanRef> {
    const { steps, order } = await this.ctx.learner.order(c.diagnosis.entry, c.diagnosis.facts, seedOf(`${caseId}:${offer}`));
    const planned = new Set(c.ref.steps);
    // What the paste itself points at leads; the learned order ranks the rest.
    const leads = new Set(c.plan.leads);
    return { ...c.ref, steps: [...c.plan.leads, ...steps.filter((id) => planned.has(id) && !leads.has(id))], order };
  }

  /**
   * Runs a command on a case and stores the transition, if the case is still as it was read: when
   * another process moved it on meanwhile (two sweeps, two shards' clicks), the machine decides
   * again on the case as it is now.
   */
  async apply(found: Stored, command: Command, pasted?: Classified): Promise<Message[]> {
    const { state } = found;
    const t = step(state, command);
    const next = t.state ?? state;
    if (!(await this.ctx.store.append(state.caseId, t.records, next, { seq: found.seq }))) return this.again(state.caseId, (f) => this.apply(f, command, pasted));
    return this.render(t.replies, next, pasted);
  }

  /** Reads a case again after a stale write and decides anew; a case deleted meanwhile (forget) is gone. */
  async again(caseId: string, decide: (found: Stored) => Promise<Message[]>): Promise<Message[]> {
    const found = await this.ctx.store.get(caseId);
    return found ? decide(found) : [];
  }

  async render(replies: Reply[], state: CaseState, pasted?: Classified): Promise<Message[]> {
    const { kb, store, settings } = this.ctx;
    const row = (await store.get(state.caseId))?.row;
    const storedFacts = row ? (JSON.parse(row.facts) as Facts) : undefined;
    // The newest log's facts tailor the current plan once the case has switched to it.
    const facts = pasted && pasted.ref.entry === state.plan.entry ? pasted.diagnosis.facts : storedFacts;
    const entry = kb.entries.find((e) => e.id === state.plan.entry);
    // Lines shown keep the flags the user added at steps they carried out.
    const kept = facts ? flagsApplied(state.tried, facts, kb) : [];
    const planned = new Map((entry && facts ? planSteps(entry, facts, kb, entry.steps, kept).steps : []).map((s) => [s.id, s]));
    const messages = renderReplies(replies, {
      kb,
      state,
      ...(row ? { platform: row.platform } : {}),
      facts: facts ? describeFacts(facts, state.lang) : [],
      planned,
      ...(pasted ? { newDiagnosis: { diagnosis: pasted.diagnosis, plan: pasted.plan } } : {}),
      learned: await this.ctx.learner.record(state.plan.entry),
    });
    // The hand-over names the helpers of the case's place, as its admins set them.
    if (!row?.server || !messages.some((m) => m.pingHelpers)) return messages;
    const helpers = (await settings.of(row.platform, row.server)).helpers;
    return helpers ? messages.map((m) => (m.pingHelpers ? { ...m, helpers } : m)) : messages;
  }
}
