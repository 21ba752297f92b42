// Opening a case: a paste diagnosed, one case per source and per thread, and someone else's log
// in a case's thread kept as a draft until its author opens their own.
import { createHash } from 'node:crypto';
import type { Diagnosis } from '../classify/classify.ts';
import type { Lang } from '../i18n/messages.ts';
import { checkPaste, type Answers } from './answers.ts';
import type { Cases } from './cases.ts';
import { paced, type Context } from './context.ts';
import { step } from './machine.ts';
import { langOf, placed, type Origin } from './origin.ts';
import { nextQuestion } from './questions.ts';
import { isErrorShaped, type Reader } from './reader.ts';
import { DRAFT_PREFIX, renderDiagnosisMessage, withShowButton, type Message } from './render.ts';
import { C } from './strings.ts';

/** Same error, same fingerprint: digits, hex and paths do not make an error new. */
export function fingerprint(d: Diagnosis): string {
  const message = (d.facts.exception?.message ?? '')
    .toLowerCase()
    .replace(/0x[0-9a-f]+/g, '#')
    .replace(/\d+(?:\.\d+)?/g, '#')
    .replace(/(?:[a-z]:)?[\\/][^\s'"]+/g, '<path>')
    .slice(0, 200);
  return createHash('sha1').update(`${d.category}|${d.facts.exception?.type ?? ''}|${message}`).digest('hex').slice(0, 12);
}

/** What a case can be opened on: an error, or a failure the kb knows without one (a silent crash). */
const opensCase = (d: Diagnosis) => isErrorShaped(d.facts) || d.category !== 'not_oom';

export class Opening {
  constructor(
    private readonly ctx: Context,
    private readonly cases: Cases,
    private readonly answers: Answers,
    private readonly reader: Reader,
    private readonly newId: () => string,
  ) {}

  async open(origin: Origin, text: string): Promise<Message[]> {
    const { store, work, pace } = this.ctx;
    origin = await placed(this.ctx.settings, origin);
    const lang = langOf(origin, text);
    const problem = checkPaste(text, lang);
    if (problem) return [problem];
    const c = await this.reader.classify(text);
    // "stop", "n", "thanks": nothing to diagnose, and no case to count.
    if (!opensCase(c.diagnosis)) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.noErrorToOpen[lang] }] }];
    // The thread follows someone else's case: one case per thread, so theirs opens elsewhere.
    const taken = origin.thread !== undefined ? await store.caseInThread(origin.platform, origin.thread) : undefined;
    if (taken && (await this.cases.state(taken))?.owner !== origin.user) return this.draft(origin, text, lang);
    if (taken) return this.answers.paste(taken, text, origin);
    const caseId = this.newId();
    const at = this.ctx.now();
    const question = nextQuestion(c.diagnosis.facts, [], this.reader.judge);
    const t = step(undefined, { kind: 'open', at, caseId, owner: origin.user, lang, plan: await this.cases.ordered(c, caseId, 0), ...(question ? { question } : {}) });
    const state = t.state!;
    const [facts, paste] = await paced(pace, Promise.all([work.storedFacts(c.diagnosis.facts), work.storedPaste(text)]));
    const created = await store.create(
      {
        id: caseId,
        platform: origin.platform,
        server: origin.server,
        channel: origin.channel,
        userId: origin.user,
        createdAt: at,
        category: c.diagnosis.category,
        entry: c.diagnosis.entry.id,
        kbVersion: c.diagnosis.kbVersion,
        facts,
        paste,
        fingerprint: fingerprint(c.diagnosis),
        recognized: c.diagnosis.entry.priority >= 0,
        ...(origin.source !== undefined ? { source: origin.source } : {}),
        ...(origin.thread !== undefined ? { thread: origin.thread } : {}),
      },
      t.records,
      state,
    );
    // Classifying took a while: the same source or another case in this thread may have won meanwhile.
    if ('existing' in created) {
      if (created.by === 'source') return this.alreadyOpened(created.existing, lang);
      return (await this.cases.state(created.existing))?.owner === origin.user ? this.answers.paste(created.existing, text, origin) : this.draft(origin, text, lang);
    }
    const diagnosis: Message = { ...withShowButton(renderDiagnosisMessage(c.diagnosis, c.plan, lang, { caseId, diagnosis: state.diagnosis ?? 0 }), lang), opens: true };
    return [diagnosis, ...(await this.cases.render(t.replies, state))];
  }

  /** The answer to a source that opened a case already: where that case goes on. */
  async alreadyOpened(caseId: string, lang: Lang): Promise<Message[]> {
    const place = await this.cases.place(caseId);
    const goesOnIn = place?.thread ? { goesOnIn: { channel: place.channel, thread: place.thread } } : {};
    return [{ ephemeral: true, caseId, blocks: [{ kind: 'text', text: C.alreadyOpened[lang] }], ...goesOnIn }];
  }

  /**
   * Someone else's log in a case's thread: kept as a draft (redacted, like a case's paste) until
   * its author presses the button that opens their own case in a new thread.
   */
  private async draft(origin: Origin, text: string, lang: Lang): Promise<Message[]> {
    const id = this.newId();
    const paste = await paced(this.ctx.pace, this.ctx.work.storedPaste(text));
    await this.ctx.store.saveDraft({ id, platform: origin.platform, ...(origin.server ? { server: origin.server } : {}), userId: origin.user, createdAt: this.ctx.now(), paste });
    return [
      {
        ephemeral: true,
        blocks: [{ kind: 'text', text: C.threadTaken[lang] }],
        buttons: [{ id: `${DRAFT_PREFIX}${id}`, label: C.buttons.openOwn[lang], style: 'primary' }],
      },
    ];
  }

  async openDraft(buttonId: string, origin: Origin): Promise<Message[]> {
    origin = await placed(this.ctx.settings, origin);
    const id = buttonId.slice(DRAFT_PREFIX.length);
    const draft = buttonId.startsWith(DRAFT_PREFIX) ? await this.ctx.store.takeDraft(id, origin.platform, origin.user) : undefined;
    if (!draft) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.draftGone[langOf(origin, '')] }] }];
    const { thread: _elsewhere, ...rest } = origin;
    return this.open({ ...rest, source: `${DRAFT_PREFIX}${id}` }, draft);
  }
}
