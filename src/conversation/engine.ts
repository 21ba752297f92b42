// The platform-neutral engine: pastes and button presses in, neutral messages out. It ties the
// pure parts (classifier, planner, state machine, renderer) to the case store; chat adapters and
// the terminal only translate its messages.
import { createHash, randomBytes } from 'node:crypto';
import { createClassifier, createJudge, type Diagnosis, type Judge } from '../classify/classify.ts';
import { compileStages, type CompiledStages } from '../classify/facts/stage.ts';
import type { Facts } from '../classify/facts/types.ts';
import { detectLang, type Lang } from '../i18n/messages.ts';
import type { Kb } from '../kb/load.ts';
import type { Text } from '../kb/schema.ts';
import { wording } from '../classify/wording.ts';
import { couldNotApply } from '../plan/applied.ts';
import { flagsApplied, planSteps, type Plan } from '../plan/plan.ts';
import { ingest, kindOf, takesTime, type Attachment, type Inbound, type Ingested, type IngestProblem } from '../ingest/ingest.ts';
import { hasPasteLink, httpPasteReader, pasteLinks, type PasteReader } from '../ingest/paste-links.ts';
import { Learner, seedOf, type AdaptiveSetting } from '../learn/index.ts';
import type { Ocr } from '../ingest/ocr.ts';
import { describeFacts } from '../render/diagnosis-text.ts';
import type { CaseStore, Stored } from '../store/cases.ts';
import { storeProblem, type StoreError } from '../store/errors.ts';
import { parseSince, type Scope } from '../store/stats.ts';
import { idleCloses, REMIND_AFTER, step, type CaseState, type Command, type PlanRef, type Record as CaseRecord, type Reply } from './machine.ts';
import { nextQuestion, readTyped, withAnswer, type Clarification } from './questions.ts';
import { DRAFT_PREFIX, FORGET_PREFIX, parseButtonId, renderDiagnosisMessage, renderReplies, withShowButton, type Message } from './render.ts';
import { Pace, weightOf, type Lane } from './pace.ts';
import { isSentence, pressesFor, replyReader, type ReplyReader } from './replies.ts';
import { factsForStorage, shownDiagnosis, storedPaste } from './storable.ts';
import { C } from './strings.ts';
import { Settings } from '../settings/settings.ts';
import { isOptedOut } from '../settings/place.ts';
import { SettingsStore } from '../store/settings.ts';

export interface Origin {
  platform: string;
  server?: string;
  channel?: string;
  user: string;
  /** The platform's locale for the user, e.g. "zh-CN". */
  locale?: string;
  /** Moderators may answer any case's buttons. */
  moderator?: boolean;
  /** A language the user chose explicitly; otherwise the paste, the locale, then the place's default decide. */
  lang?: Lang;
  /** The place's default language (its settings; null when it has none), filled in by the engine. */
  placeLang?: Lang | null;
  /**
   * The conversation a case from here runs in, when it is known before anything is posted (a
   * Discord thread, forum post or DM, a Slack thread): it holds one open case at most.
   */
  thread?: string;
  /** What a case would be opened from (a message, a command invocation): it opens one at most. */
  source?: string;
  /** A direct conversation with the bot: every message there is addressed to it. */
  direct?: boolean;
}

/**
 * What costs the engine most, for it to run off the event loop that acknowledges chat commands:
 * reading a paste, redacting what is kept of it, and rewriting the database file after a forget.
 * Inline by default (the terminal); the bots pass a worker pool (see pool.ts).
 */
export interface Work {
  /** The diagnosis as shown: its quoted lines redacted (see storable.ts). */
  classify(text: string): Diagnosis | Promise<Diagnosis>;
  /** See storable.ts. */
  storedPaste(text: string): Promise<string>;
  storedFacts(facts: Facts): Promise<Facts>;
  /** Leaves no copy of deleted rows in the database file (see CaseStore.wipe), through a connection of its own. */
  wipe(file: string): Promise<boolean>;
}

export interface EngineOptions {
  kb: Kb;
  store: CaseStore;
  /** Defaults to this thread (see Work). */
  work?: Work;
  now?: () => number;
  newId?: () => string;
  /** An open case with no activity for this long is abandoned (default 24 h). */
  idleMs?: number;
  /** Pastes one user may submit per minute (default 6). */
  ratePerMinute?: number;
  /** Screenshots one user may submit per minute (default 3): OCR is the expensive part. */
  imagesPerMinute?: number;
  /** Reads screenshots; without it, images are answered with a request for text. */
  ocr?: Ocr;
  /** Reads links to paste sites (default: over the network; see paste-links.ts). */
  readPaste?: PasteReader;
  /** COMFYOOM_ADAPTIVE: whether step orders are learned from recorded outcomes (default auto). */
  adaptive?: AdaptiveSetting;
  /** Places' settings (default: stored beside the cases, with no defaults of the bot's). */
  settings?: Settings;
}

/** Below these, what OCR read is shown back instead of diagnosed (see OCR confidence gate). */
export const OCR_GATE = { minOcrConfidence: 60, minDiagnosisConfidence: 0.7 };

/**
 * Whether what OCR read is answered: read surely, matched to something specific, and the same
 * failure however the screen's unclear line breaks are read (`other`: the diagnosis with them
 * joined). A GPU OOM whose stage one reading shows and the other does not is the same failure.
 */
export function answersScreenshot(ocrConfidence: number, d: Diagnosis, other?: Diagnosis): boolean {
  const gpu = (c: string) => c.startsWith('oom_gpu_');
  const same = !other || other.category === d.category || (gpu(d.category) && gpu(other.category) && [d.category, other.category].includes('oom_gpu_other'));
  return ocrConfidence >= OCR_GATE.minOcrConfidence && d.confidence >= OCR_GATE.minDiagnosisConfidence && d.entry.priority >= 0 && same;
}

/** How often a wipe another process held back is tried again. */
const SCRUB_RETRY_MS = 60_000;

/** Watch mode speaks up only when the classifier is this sure it is an OOM. */
export const WATCH_CONFIDENCE = 0.8;

interface Classified {
  diagnosis: Diagnosis;
  plan: Plan;
  ref: PlanRef;
  oom: boolean;
}

/** The user's own words first, then their locale when it is a language the bot speaks, then `fallback`. */
export function langFor(locale: string | undefined, text: string, fallback: Lang = 'en'): Lang {
  const l = locale?.toLowerCase();
  if (detectLang(text) === 'zh' || l?.startsWith('zh')) return 'zh';
  return l?.startsWith('en') ? 'en' : fallback;
}
/** Traditional-Chinese locales get Simplified Chinese, and are told so. */
const TRADITIONAL = /^zh[-_](tw|hk|mo|hant)/i;
export const langOf = (origin: Origin, text: string): Lang => origin.lang ?? langFor(origin.locale, text, origin.placeLang ?? undefined);

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

function looksBinary(text: string): boolean {
  const sample = text.slice(0, 4096);
  if (sample.includes('\u0000')) return true;
  const control = sample.match(/[\u0001-\u0008\u000e-\u001f\ufffd]/g)?.length ?? 0;
  return sample.length > 0 && control / sample.length > 0.1;
}

export class Engine {
  readonly kb: Kb;
  private readonly store: CaseStore;
  private readonly work: Work;
  /** The kb's rules over facts, to re-decide a case from facts a user's answer adds. */
  private readonly judge: Judge;
  private readonly stages: CompiledStages;
  private readonly readReply: ReplyReader;
  private last?: { text: string; diagnosis: Promise<Diagnosis> };
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly idleMs: number;
  private readonly ratePerMinute: number;
  private readonly imagesPerMinute: number;
  private readonly ocr?: Ocr;
  private readonly readPaste: PasteReader;
  /** Orders each case's steps from the outcomes recorded so far (src/learn). */
  readonly learner: Learner;
  /** What each place's admins set (src/settings). */
  readonly settings: Settings;
  /** Recent paste times per platform user, for the rate limits (kept in memory: they protect the bot, not a record). */
  private readonly recent = new Map<string, number[]>();
  /** A wipe held back by another connection's older snapshot, tried again until it completes (see wipe). */
  private scrubRetry?: NodeJS.Timeout;
  private readonly pace = new Pace();

  constructor(o: EngineOptions) {
    this.kb = o.kb;
    this.store = o.store;
    this.work = o.work ?? inline(o.kb, o.store);
    this.judge = createJudge(o.kb);
    this.stages = compileStages(o.kb.stages);
    this.readReply = replyReader(o.kb.replies);
    this.now = o.now ?? Date.now;
    // Never starting with '-': a case id is typed as a command-line argument (comfyoom relabel ID ...).
    this.newId = o.newId ?? (() => randomBytes(6).toString('base64url').replace(/^-/, 'x'));
    this.idleMs = o.idleMs ?? 24 * 60 * 60 * 1000;
    this.ratePerMinute = o.ratePerMinute ?? 6;
    this.imagesPerMinute = o.imagesPerMinute ?? 3;
    if (o.ocr) this.ocr = o.ocr;
    this.readPaste = o.readPaste ?? httpPasteReader();
    this.learner = new Learner(o.store.sql, o.kb, o.adaptive ?? 'auto');
    this.settings = o.settings ?? new Settings(new SettingsStore(o.store.sql));
  }

  /** The origin with its place's default language, for the words and locale that do not tell; looked up once a request. */
  private async placed(origin: Origin): Promise<Origin> {
    if (origin.placeLang !== undefined) return origin;
    return { ...origin, placeLang: (await this.settings.of(origin.platform, origin.server)).language ?? null };
  }

  /**
   * Resolves in a later turn of the event loop, when few other pieces go on in it (see pace.ts).
   * Adapters take an `ack` turn before reading a delivery and a `work` turn after acknowledging
   * it; the engine a `work` turn after each piece of Work, whose results may all arrive at once.
   */
  turn(lane?: Lane): Promise<void> {
    return this.pace.turn(lane);
  }

  /** Attachments as ingest reads them, each decoded in a turn of its own weight: a few ms of the event loop per MB (see pace.ts). */
  private spaced(inbound: Inbound): Inbound {
    const spaced = (a: Attachment): Attachment => ({
      ...a,
      read: async () => {
        const bytes = await a.read();
        await this.pace.turn('work', weightOf(bytes.length));
        return bytes;
      },
    });
    return inbound.attachments?.length ? { ...inbound, attachments: inbound.attachments.map(spaced) } : inbound;
  }

  private async paced<T>(work: T | Promise<T>): Promise<T> {
    const done = await work;
    await this.pace.turn();
    return done;
  }

  /** True when this user has sent too much in the last minute; records the attempt otherwise. */
  private limited(origin: Origin, kind: 'paste' | 'image' | 'look', count = 1): boolean {
    const key = `${kind}:${origin.platform}:${origin.user}`;
    const now = this.now();
    const limit = kind === 'image' ? this.imagesPerMinute : this.ratePerMinute;
    const times = (this.recent.get(key) ?? []).filter((t) => now - t < 60_000);
    if (times.length + count > limit) {
      this.recent.set(key, times);
      return true;
    }
    for (let i = 0; i < count; i++) times.push(now);
    this.recent.set(key, times);
    if (this.recent.size > 10_000) for (const [k, v] of this.recent) if (v.every((t) => now - t >= 60_000)) this.recent.delete(k);
    return false;
  }

  /**
   * The classifier, remembering its last answer: adapters ask `looksLikeLog` and the OCR gate
   * checks a screenshot before the same text is diagnosed for real, so each paste is read once.
   */
  private diagnose(text: string): Promise<Diagnosis> {
    if (this.last?.text !== text) this.last = { text, diagnosis: this.paced(this.work.classify(text)) };
    return this.last.diagnosis;
  }

  private async classify(text: string): Promise<Classified> {
    return this.planned(await this.diagnose(text));
  }

  private planned(diagnosis: Diagnosis): Classified {
    const plan = planSteps(diagnosis.entry, diagnosis.facts, this.kb);
    return {
      diagnosis,
      plan,
      ref: { entry: diagnosis.entry.id, category: diagnosis.category, steps: plan.steps.map((s) => s.id) },
      oom: diagnosis.category !== 'not_oom',
    };
  }

  /**
   * The plan in the order this case gets it (learned, or the kb's), with how it was chosen; the
   * seed is the case's and the decision's, so the same counts would give it the same order again.
   */
  private async ordered(c: Classified, caseId: string, offer: number): Promise<PlanRef> {
    const { steps, order } = await this.learner.order(c.diagnosis.entry, c.diagnosis.facts, seedOf(`${caseId}:${offer}`));
    const planned = new Set(c.ref.steps);
    // What the paste itself points at leads; the learned order ranks the rest.
    const leads = new Set(c.plan.leads);
    return { ...c.ref, steps: [...c.plan.leads, ...steps.filter((id) => planned.has(id) && !leads.has(id))], order };
  }

  /** A problem with the paste itself, answered before any case exists. */
  private checkPaste(text: string, lang: Lang): Message | undefined {
    if (!text.trim()) return { ephemeral: true, blocks: [{ kind: 'text', text: C.emptyPaste[lang] }] };
    if (looksBinary(text)) return { ephemeral: true, blocks: [{ kind: 'text', text: C.binaryPaste[lang] }] };
    return undefined;
  }

  /**
   * What adapters call: a message's text and attachments, for a new case or (with `caseId`) as a
   * new log in an open one. Files that cannot be read are reported, the rest is diagnosed.
   */
  async receive(origin: Origin, inbound: Inbound, caseId?: string): Promise<Message[]> {
    origin = await this.placed(origin);
    const early = langOf(origin, inbound.text ?? '');
    // A source that opened a case already (a double click, a retry) is answered before any work.
    const opened = !caseId && origin.source !== undefined ? await this.store.fromSource(origin.platform, origin.source) : undefined;
    if (opened) return this.alreadyOpened(opened, early);
    const inThread = !caseId && origin.thread !== undefined ? await this.store.caseInThread(origin.platform, origin.thread) : undefined;
    // "@ComfyOOM" alone in a case's thread: the question again (e.g. after a post failed).
    if (inThread && !inbound.text?.trim() && !inbound.attachments?.length) return this.current(inThread);
    // The owner's words in their case's thread are for the case: a new log, or an answer typed to its
    // question; anything else addressed to the bot there asks where the case stands.
    const asked = inThread ? await this.state(inThread) : undefined;
    if (inThread && asked?.owner === origin.user) return this.receive(origin, inbound, inThread);
    if (this.limited(origin, 'paste')) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.rateLimited[early] }] }];
    const images = (inbound.attachments ?? []).filter((a) => kindOf(a) === 'image').length;
    if (images && this.ocr && this.limited(origin, 'image', images)) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.imageRateLimited[early] }] }];
    // Links to paste sites are read like attached logs.
    const links = pasteLinks(inbound.text ?? '', this.readPaste);
    const got = await ingest(this.spaced(links.length ? { ...inbound, attachments: [...(inbound.attachments ?? []), ...links] } : inbound), this.ocr);
    const lang = caseId ? ((await this.state(caseId))?.lang ?? langOf(origin, got.text)) : langOf(origin, got.text);
    const notes = got.problems.length ? [problemsMessage(got.problems, lang)] : [];
    if (!got.text.trim() && notes.length) return notes;
    if (got.ocr.length && !got.hasTypedText) {
      const doubt = await this.ocrDoubt(got, lang);
      if (doubt) return [...notes, doubt];
    }
    return [...notes, ...(caseId ? await this.paste(caseId, got.text, origin) : await this.open(origin, got.text))];
  }

  /**
   * A message posted where the bot listens, not addressed to it: the owner's new log or typed
   * answer in their case's thread, the log a case in a thread-less channel asked for, anything in
   * a direct conversation (a greeting there gets how to start). Chat that answers nothing, and
   * anyone else's messages, get nothing.
   */
  async posted(origin: Origin, inbound: Inbound): Promise<Message[]> {
    origin = await this.placed(origin);
    const text = inbound.text ?? '';
    // A zip or .gz is most often the Desktop app's logs folder, sent as the log itself.
    const logFile = inbound.attachments?.some((a) => /\.(txt|log)$/i.test(a.name) || kindOf(a) === 'archive') ?? false;
    const looksLikeLog = async () => logFile || (await this.looksLikeLog(text));
    if (origin.thread !== undefined) {
      const caseId = await this.store.caseInThread(origin.platform, origin.thread);
      const state = caseId ? await this.state(caseId) : undefined;
      if (caseId && state?.owner === origin.user) {
        const forCase = state.awaiting === 'log' || state.awaiting === 'question' || this.readReply(text) !== undefined || (await looksLikeLog());
        return forCase ? this.receive(origin, inbound, caseId) : [];
      }
      if (caseId || !origin.direct) return [];
      if (inbound.attachments?.length || (await looksLikeLog())) return this.receive(origin, inbound);
      return text.trim() ? [{ blocks: [{ kind: 'text', text: C.howToStart[langOf(origin, text)] }] }] : [];
    }
    // A case that could not get a thread runs in its channel and reads only the log it asked for.
    const caseId = await this.lastOpenCase(origin);
    const found = caseId ? await this.store.get(caseId) : undefined;
    return found && !found.row.thread && found.state.awaiting === 'log' && (await looksLikeLog()) ? this.receive(origin, inbound, caseId) : [];
  }

  private async alreadyOpened(caseId: string, lang: Lang): Promise<Message[]> {
    const place = await this.place(caseId);
    const goesOnIn = place?.thread ? { goesOnIn: { channel: place.channel, thread: place.thread } } : {};
    return [{ ephemeral: true, caseId, blocks: [{ kind: 'text', text: C.alreadyOpened[lang] }], ...goesOnIn }];
  }

  /**
   * Someone else's log in a case's thread: kept as a draft (redacted, like a case's paste) until
   * its author presses the button that opens their own case in a new thread.
   */
  private async draft(origin: Origin, text: string, lang: Lang): Promise<Message[]> {
    const id = this.newId();
    const paste = await this.paced(this.work.storedPaste(text));
    await this.store.saveDraft({ id, platform: origin.platform, ...(origin.server ? { server: origin.server } : {}), userId: origin.user, createdAt: this.now(), paste });
    return [
      {
        ephemeral: true,
        blocks: [{ kind: 'text', text: C.threadTaken[lang] }],
        buttons: [{ id: `${DRAFT_PREFIX}${id}`, label: C.buttons.openOwn[lang], style: 'primary' }],
      },
    ];
  }

  /** The "open my own case" button: the draft becomes a case of its own, in a new thread the adapter opens. */
  async openDraft(buttonId: string, origin: Origin): Promise<Message[]> {
    origin = await this.placed(origin);
    const id = buttonId.slice(DRAFT_PREFIX.length);
    const draft = buttonId.startsWith(DRAFT_PREFIX) ? await this.store.takeDraft(id, origin.platform, origin.user) : undefined;
    if (!draft) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.draftGone[langOf(origin, '')] }] }];
    const { thread: _elsewhere, ...rest } = origin;
    return this.open({ ...rest, source: `${DRAFT_PREFIX}${id}` }, draft);
  }

  /**
   * The confidence gate for screenshots: when OCR was unsure or what it read matches nothing
   * specific, show what was read and ask for the text rather than guess.
   */
  private async ocrDoubt({ text, ocr, otherText }: Pick<Ingested, 'text' | 'ocr' | 'otherText'>, lang: Lang): Promise<Message | undefined> {
    const ocrConfidence = Math.min(...ocr.map((r) => r.confidence));
    if (answersScreenshot(ocrConfidence, await this.diagnose(text), otherText === undefined ? undefined : await this.diagnose(otherText))) return undefined;
    // What OCR read is the user's screen: redacted like a stored paste, and shown to them alone where the platform can.
    const excerpt = await this.work.storedPaste(text.trim().split('\n').filter((l) => l.trim()).slice(-12).join('\n').slice(-900));
    return {
      ephemeral: true,
      blocks: [
        { kind: 'text', text: C.ocrDoubt[lang] },
        { kind: 'code', text: excerpt || '(nothing)' },
        { kind: 'note', text: C.ocrDoubtAsk[lang].replace('{confidence}', String(Math.round(ocrConfidence))) },
      ],
    };
  }

  /** Whether reading a message takes long enough for the adapters to show the bot at work (see ingest.ts). */
  takesTime(inbound: Inbound): boolean {
    return takesTime(inbound);
  }

  /**
   * Watch mode: whether a message (its text and text files, as a case would read them; no OCR)
   * is an out-of-memory error the classifier is sure enough of to offer help unasked.
   */
  async worthOffering(origin: Origin, inbound: Inbound): Promise<boolean> {
    // Each look reads the message's files: one user's burst of large logs is looked at as often
    // as they could paste them (a pressed offer counts again, as a paste), the rest passed by.
    if (this.limited(origin, 'look')) return false;
    const files = (inbound.attachments ?? []).filter((a) => kindOf(a) === 'text');
    const got = await ingest(this.spaced({ ...inbound, attachments: files }));
    const seen = await this.peek(got.text);
    return seen.oom && seen.confidence >= WATCH_CONFIDENCE;
  }

  /** A quick look without opening a case: for watch modes that offer help only on real OOMs. */
  async peek(text: string): Promise<{ category: string; confidence: number; oom: boolean }> {
    const d = await this.diagnose(text);
    return { category: d.category, confidence: d.confidence, oom: d.category !== 'not_oom' };
  }

  /**
   * Whether text is error-shaped (an exception line, or an error wording the kb knows): what the
   * adapters accept as a log, and what a case accepts as its new log. "thanks, trying now" is not.
   */
  async looksLikeLog(text: string): Promise<boolean> {
    return (text.trim() !== '' && !isSentence(text) && isErrorShaped((await this.diagnose(text)).facts)) || hasPasteLink(text);
  }

  /** Diagnoses a paste and opens a case that walks its owner through the plan. */
  async open(origin: Origin, text: string): Promise<Message[]> {
    origin = await this.placed(origin);
    const lang = langOf(origin, text);
    const problem = this.checkPaste(text, lang);
    if (problem) return [problem];
    const c = await this.classify(text);
    // "stop", "n", "thanks": nothing to diagnose, and no case to count.
    if (!opensCase(c.diagnosis)) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.noErrorToOpen[lang] }] }];
    // The thread follows someone else's case: one case per thread, so theirs opens elsewhere.
    const taken = origin.thread !== undefined ? await this.store.caseInThread(origin.platform, origin.thread) : undefined;
    if (taken && (await this.state(taken))?.owner !== origin.user) return this.draft(origin, text, lang);
    if (taken) return this.paste(taken, text, origin);
    const caseId = this.newId();
    const at = this.now();
    const question = nextQuestion(c.diagnosis.facts, [], this.judge);
    const t = step(undefined, { kind: 'open', at, caseId, owner: origin.user, lang, plan: await this.ordered(c, caseId, 0), ...(question ? { question } : {}) });
    const state = t.state!;
    const [facts, paste] = await this.paced(Promise.all([this.work.storedFacts(c.diagnosis.facts), this.work.storedPaste(text)]));
    const created = await this.store.create(
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
      return (await this.state(created.existing))?.owner === origin.user ? this.paste(created.existing, text, origin) : this.draft(origin, text, lang);
    }
    const diagnosis: Message = { ...withShowButton(renderDiagnosisMessage(c.diagnosis, c.plan, lang, { caseId, diagnosis: state.diagnosis ?? 0 }), lang), opens: true };
    if (!origin.lang && lang === 'zh' && TRADITIONAL.test(origin.locale ?? '')) diagnosis.blocks.push({ kind: 'note', text: C.simplifiedNote.zh });
    return [diagnosis, ...(await this.render(t.replies, state))];
  }

  /** A button press, from anyone; the machine decides whether it counts. */
  async press(buttonId: string, origin: Origin): Promise<Message[]> {
    origin = await this.placed(origin);
    const choice = parseButtonId(buttonId);
    const found = choice && (await this.store.get(choice.caseId));
    if (!choice || !found) {
      const lang = langOf(origin, '');
      return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.rejected.unexpected[lang] }] }];
    }
    if ('show' in choice) return this.showCurrent(found, origin);
    if ('question' in choice) return this.clarify(found, choice.offer, { question: choice.question, choice: choice.choice }, origin);
    if ('doubt' in choice) return this.doubt(found, choice.offer, origin);
    const who = { at: this.now(), actor: origin.user, moderator: origin.moderator ?? false };
    const command: Command = 'action' in choice ? { kind: 'action', offer: choice.offer, action: choice.action, ...who } : { kind: 'reason', offer: choice.offer, reason: choice.reason, ...who };
    return this.apply(found, command);
  }

  /**
   * "That's not my problem" (pressed on diagnosis number `diagnosis`, or typed): the question that
   * could tell the case apart, when one is left, else the whole log.
   */
  private async doubt(found: Stored, diagnosis: number, origin: Origin): Promise<Message[]> {
    const question = nextQuestion(JSON.parse(found.row.facts) as Facts, found.state.clarified, this.judge);
    const who = { at: this.now(), actor: origin.user, moderator: origin.moderator ?? false };
    return this.apply(found, { kind: 'doubt', diagnosis, ...who, ...(question ? { question } : {}) });
  }

  /** "Show current step": for the owner and moderators in the case's thread, for anyone else privately. */
  private async showCurrent(found: Stored, origin: Origin): Promise<Message[]> {
    const out = await this.current(found.state.caseId);
    return found.state.owner === origin.user || origin.moderator ? out : out.map((m) => ({ ...m, ephemeral: true }));
  }

  /** Whether typed text answers the case's open question (a node's name, "AMD", "don't know"). */
  async answersQuestion(caseId: string, text: string): Promise<boolean> {
    const s = await this.state(caseId);
    return s?.awaiting === 'question' && !!s.question && readTyped(s.question, text, this.stages) !== undefined;
  }

  /**
   * An answer to the question before the first step: its fact joins the case's facts, the kb's
   * rules decide the entry again, and the machine records it (or refuses a stale or stranger's
   * answer). The stored facts and diagnosis change with the record, in the same transaction.
   */
  private async clarify(found: Stored, offer: number, answer: Clarification, origin: Origin): Promise<Message[]> {
    const { row, state } = found;
    const facts = withAnswer(JSON.parse(row.facts) as Facts, answer);
    const c = this.planned(this.judge(facts));
    // Only an open question has a follow-up; anything else is refused by the machine below.
    const next = state.awaiting === 'question' ? nextQuestion(facts, [...state.clarified, answer.question], this.judge) : undefined;
    const t = step(state, {
      kind: 'clarify',
      at: this.now(),
      actor: origin.user,
      moderator: origin.moderator ?? false,
      offer,
      question: answer.question,
      choice: answer.choice,
      ...(answer.typed ? { typed: true as const } : {}),
      ...(answer.node ? { node: answer.node.name } : {}),
      plan: await this.ordered(c, state.caseId, state.offer),
      ...(next ? { next } : {}),
    });
    const after = t.state ?? state;
    const accepted = t.records.some((r) => r.type === 'clarified');
    const diagnosis = accepted ? { category: c.diagnosis.category, entry: c.diagnosis.entry.id, facts } : undefined;
    if (!(await this.store.append(state.caseId, t.records, after, { seq: found.seq, ...(diagnosis ? { diagnosis } : {}) }))) return this.again(state.caseId, (f) => this.clarify(f, offer, answer, origin));
    return this.render(t.replies, after);
  }

  /** A new log pasted into an open case. */
  async paste(caseId: string, text: string, origin: Origin): Promise<Message[]> {
    origin = await this.placed(origin);
    const found = await this.store.get(caseId);
    if (!found) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.rejected.unexpected[langOf(origin, text)] }] }];
    const problem = this.checkPaste(text, found.state.lang);
    if (problem) return [problem];
    // Words in a case ("still OOM", "thanks, trying now") are an answer, not a log: only console
    // output may switch or resolve the plan. A sentence needs no classifying to know it.
    const c = isSentence(text) ? undefined : await this.classify(text);
    const { state } = found;
    const asking = state.awaiting === 'question' ? state.question : undefined;
    if (!c || !isErrorShaped(c.diagnosis.facts)) {
      const typed = asking && readTyped(asking, text, this.stages);
      if (typed) return this.clarify(found, state.offer, typed, origin);
      return this.answer(found, text, origin);
    }
    // While the question is open the new log replaces the first; it may leave a question of its own.
    const question = asking && nextQuestion(c.diagnosis.facts, state.clarified, this.judge);
    const notApplied = !asking && state.status === 'open' && couldNotApply(state.plan.steps[state.index]!, c.diagnosis.facts, this.kb);
    const command: Command = {
      kind: 'log',
      at: this.now(),
      actor: origin.user,
      moderator: origin.moderator ?? false,
      plan: await this.ordered(c, caseId, state.offer),
      oom: c.oom,
      ...(question ? { question } : {}),
      ...(notApplied ? { notApplied: true as const } : {}),
    };
    return this.apply(found, command, c);
  }

  /**
   * A reply typed at the case's prompt: the buttons it stands for, pressed in turn and stored
   * together; the prompt again when it asks about the step or a log is still wanted; "did that fix
   * it?" when the words do not say.
   */
  private async answer(found: Stored, text: string, origin: Origin): Promise<Message[]> {
    const { state } = found;
    // A case closed for silence still takes its fix ("it worked", days later); the machine refuses the rest.
    if (state.status !== 'open' && state.status !== 'abandoned') return this.current(state.caseId);
    const presses = pressesFor(this.readReply(text), state.awaiting);
    if (presses === 'doubt') return this.doubt(found, state.diagnosis ?? 0, origin);
    if (presses === 'ask') return this.render([{ type: 'ask_outcome', step: state.plan.steps[state.index]!, offer: state.offer }], state);
    if (presses === 'wait') return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.takeYourTime[state.lang] }] }];
    if (presses === 'show') {
      if (state.awaiting === 'question') {
        // Echoed redacted, and as code: a masked link or a mention in it stays inert wherever it is shown.
        const echo = (await this.work.storedPaste(text.trim().slice(0, 80))).replace(/[`\n]/g, ' ');
        return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.typedUnknown[state.lang].replace('{text}', `\`${echo}\``) }] }];
      }
      if (state.awaiting === 'log') return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.notALog[state.lang] }] }];
      return this.current(state.caseId);
    }
    let now = state;
    const records: CaseRecord[] = [];
    let replies: Reply[] = [];
    for (const press of presses) {
      const who = { at: this.now(), actor: origin.user, moderator: origin.moderator ?? false, offer: now.offer };
      const t = step(now, 'action' in press ? { kind: 'action', action: press.action, ...who } : { kind: 'reason', reason: press.reason, ...who });
      records.push(...t.records);
      replies = t.replies;
      now = t.state ?? now;
      if (!t.records.length) break; // refused (stale, closed): the rest would be too
    }
    if (records.length && !(await this.store.append(state.caseId, records, now, { seq: found.seq }))) return this.again(state.caseId, (f) => this.answer(f, text, origin));
    return this.render(replies, now);
  }

  /**
   * Reminds the open cases on `platforms` idle for half the idle time, once, and abandons those idle
   * for longer than all of it; returns what to tell each. Only a process that can post to a platform
   * sweeps its cases: another one (a Slack bot on another machine, a terminal on the bot's database)
   * would close them without a word to their users.
   */
  async sweep(platforms: readonly string[]): Promise<{ caseId: string; messages: Message[]; closed: boolean }[]> {
    const at = this.now();
    const swept: { caseId: string; messages: Message[]; closed: boolean }[] = [];
    // Halfway through their idle time, cases are reminded once (the machine decides which).
    for (const caseId of await this.store.idleOpen(at - this.idleMs * REMIND_AFTER, platforms)) {
      const found = await this.store.get(caseId);
      const messages = found ? await this.apply(found, { kind: 'tick', at, idleMs: this.idleMs }) : [];
      if (messages.length) swept.push({ caseId, messages, closed: idleCloses(found!.state, at, this.idleMs) });
    }
    return swept;
  }

  /** The question a case is waiting on, shown again (after a restart, or on request). */
  async current(caseId: string): Promise<Message[]> {
    const found = await this.store.get(caseId);
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

  /** Stops a case nobody could answer (the bot may post neither where it was asked nor to its owner): no stranded open case. */
  async withdraw(caseId: string): Promise<void> {
    const found = await this.store.get(caseId);
    if (!found || found.state.status !== 'open') return;
    const { state } = found;
    await this.apply(found, { kind: 'action', action: 'stop', offer: state.offer, at: this.now(), actor: state.owner, moderator: false });
  }

  /**
   * The message a case was opened from was deleted by its author: the case stops, as its owner
   * would stop it. Says where the case ran, for the adapter to take down the public diagnosis that
   * quoted the message.
   */
  async sourceDeleted(platform: string, source: string): Promise<{ channel: string | null; thread: string | null } | undefined> {
    const caseId = await this.store.fromSource(platform, source);
    const place = caseId ? await this.place(caseId) : undefined;
    if (!caseId || !place) return undefined;
    await this.withdraw(caseId);
    return { channel: place.channel, thread: place.thread };
  }

  /**
   * A moderator's correction: case `caseId` really was kb entry `entryId`. Stats count it under
   * that entry from now on, and the learning counts move its first diagnosis's outcomes there. Only
   * cases in the moderator's `scope` (their server or workspace) are found; the CLI has none.
   */
  async relabel(caseId: string, entryId: string, who: { actor: string; moderator: boolean; lang: Lang; scope?: Scope }): Promise<{ relabelled: boolean; message: Message }> {
    const say = (text: string) => ({ relabelled: false, message: { ephemeral: true, blocks: [{ kind: 'text' as const, text }] } });
    const found = await this.store.get(caseId);
    const inScope = found && (who.scope?.platform ?? found.row.platform) === found.row.platform && (who.scope?.server ?? found.row.server) === found.row.server;
    if (!found || !inScope) return say(C.rejected.unexpected[who.lang]);
    const entry = this.kb.entries.find((e) => e.id === entryId.trim());
    if (!entry) return say(C.unknownEntry[who.lang].replace('{entry}', entryId.trim().slice(0, 80)).replace('{entries}', nearestEntries(this.kb, entryId).join(', ')));
    const { state } = found;
    const t = step(state, { kind: 'relabel', entry: entry.id, at: this.now(), actor: who.actor, moderator: who.moderator });
    const diagnosis = t.records.length ? { category: entry.category, entry: entry.id, facts: JSON.parse(found.row.facts) as Facts } : undefined;
    const after = t.state ?? state;
    if (!(await this.store.append(caseId, t.records, after, { seq: found.seq, ...(diagnosis ? { diagnosis } : {}) }))) return this.relabel(caseId, entryId, who);
    const [message] = renderReplies(t.replies, { kb: this.kb, state: { ...after, lang: who.lang }, facts: [], planned: new Map() });
    return { relabelled: t.records.length > 0, message: message! };
  }

  /** What a case is, for a user coming back to it: its title as they were shown it, and when it opened. */
  async about(caseId: string): Promise<{ title: Text; openedAt: number } | undefined> {
    const found = await this.store.get(caseId);
    const entry = found && this.kb.entries.find((e) => e.id === found.state.plan.entry);
    return found && entry && { title: wording(entry, JSON.parse(found.row.facts) as Facts).title, openedAt: found.row.created_at };
  }

  lastOpenCase(origin: Origin): Promise<string | undefined> {
    return this.store.lastOpen(origin.platform, origin.user, origin.channel);
  }

  async state(caseId: string): Promise<CaseState | undefined> {
    return (await this.store.get(caseId))?.state;
  }

  /** Where a case lives, for adapters posting about it (the idle notice, a retired button). */
  async place(caseId: string): Promise<{ platform: string; server: string | null; channel: string | null; thread: string | null; owner: string } | undefined> {
    const row = (await this.store.get(caseId))?.row;
    return row && { platform: row.platform, server: row.server, channel: row.channel, thread: row.thread, owner: row.user_id };
  }

  /** The open case in a conversation, if any: there is at most one. */
  caseIn(platform: string, thread: string): Promise<string | undefined> {
    return this.store.caseInThread(platform, thread);
  }

  /**
   * Whether the place's admins turned the bot off where this comes from (`channel`, or a thread in
   * `parent`): it starts nothing there. A case already running in `thread` goes on.
   */
  async silencedAt(platform: string, server: string | undefined, at: { channel: string; parent?: string | null; thread?: string }): Promise<boolean> {
    if (!isOptedOut(await this.settings.of(platform, server), at.channel, at.parent)) return false;
    return !(at.thread && (await this.caseIn(platform, at.thread)));
  }

  /** Where a case runs once the adapter has opened its thread; false when another open case runs there. */
  setThread(caseId: string, thread: string): Promise<boolean> {
    return this.store.setThread(caseId, thread);
  }

  /** Records the message carrying a case's live buttons (adapter-specific reference); returns the previous one, to retire. */
  swapButtons(caseId: string, ref: string | null): Promise<string | undefined> {
    return this.store.swapButtons(caseId, ref);
  }

  /** The message with a case's live buttons was answered in place (its buttons replaced by the answer): nothing is left to retire. */
  answeredButtons(caseId: string, ref: string): Promise<void> {
    return this.store.dropButtons(caseId, ref);
  }

  /** A case whose first post failed where the bot cannot post: it reached nobody, so it is not kept or counted. */
  discard(caseId: string): Promise<void> {
    return this.store.discard(caseId);
  }

  /** True the first time a platform delivery id is seen: a redelivered event is handled once, also after a restart. */
  firstDelivery(platform: string, id: string): Promise<boolean> {
    return this.store.firstDelivery(platform, id, this.now());
  }

  /**
   * Stats for moderators, in their scope (their server or workspace), as text (one screen, or
   * everything when `all`; `seeAll` says how to ask for everything) and as a chart, in `lang`;
   * undefined when `since` is malformed. The chart's modules load on first use.
   */
  async statsReport(scope: Scope, since: string | undefined, lang: Lang, view: { all: boolean; seeAll: string }): Promise<{ text: string; chart: Buffer } | undefined> {
    let sinceMs: number | undefined;
    try {
      sinceMs = since ? parseSince(since) : undefined;
    } catch {
      return undefined;
    }
    const [{ buildStats, kbNames }, { statsChart }, { statsText }] = await Promise.all([import('../stats/report.ts'), import('../stats/chart.ts'), import('../stats/text.ts')]);
    const stats = await buildStats(this.store.sql, { scope, now: this.now(), ...(sinceMs !== undefined ? { sinceMs } : {}) }, this.kb, this.learner.setting);
    const names = kbNames(this.kb, lang);
    return { text: statsText(stats, { lang, names, ...view }), chart: statsChart(stats, lang, names) };
  }

  /**
   * The weekly digest of one server for its moderators' channel, once a week: the week is claimed
   * in the database before anything is posted, so two processes or a restart never post it twice.
   * Undefined when this week's was claimed already.
   */
  async weeklyDigest(platform: string, server: string, lang: Lang = 'en'): Promise<{ text: string; chart: Buffer } | undefined> {
    const now = this.now();
    const week = Math.floor((Math.floor(now / 86_400_000) + 3) / 7);
    if (!(await this.store.claimDigest(platform, server, week, now))) return undefined;
    const [{ buildStats, kbNames }, { statsChart }, { digestText }] = await Promise.all([import('../stats/report.ts'), import('../stats/chart.ts'), import('../stats/digest.ts')]);
    const stats = await buildStats(this.store.sql, { scope: { platform, server }, now, sinceMs: 7 * 86_400_000 });
    const names = kbNames(this.kb, lang);
    return { text: digestText(stats, lang, names), chart: statsChart(stats, lang, names) };
  }

  /**
   * A request that failed because the store did, as its sender hears it: nothing of it was saved
   * (each answer is one transaction). Undefined for any other failure. `problem` is for the log.
   */
  storeFailure(e: unknown, lang: Lang): { problem: StoreError; message: Message } | undefined {
    const problem = storeProblem(e, this.store.sql.name);
    return problem && { problem, message: { ephemeral: true, blocks: [{ kind: 'text', text: C.storeDown[lang] }] } };
  }

  /** `forget`, first step: what would go, and the buttons to confirm or cancel. */
  async forgetPrompt(origin: Origin): Promise<Message[]> {
    origin = await this.placed(origin);
    const lang = langOf(origin, '');
    const n = await this.store.countOf(origin.user, origin.platform);
    const say = (text: string) => text.replace('{n}', String(n)).replace('{platform}', PLATFORM_NAMES[origin.platform] ?? origin.platform);
    if (!n) return [{ ephemeral: true, blocks: [{ kind: 'text', text: say(C.forgetNothing[lang]) }] }];
    return [
      {
        ephemeral: true,
        blocks: [{ kind: 'text', text: say(C.forgetAsk[lang]) }],
        buttons: [
          { id: `${FORGET_PREFIX}yes`, label: C.buttons.forgetConfirm[lang], style: 'danger' },
          { id: `${FORGET_PREFIX}no`, label: C.buttons.forgetCancel[lang], style: 'secondary' },
        ],
      },
    ];
  }

  /**
   * `forget`, confirmed or cancelled: the presser's own cases, drafts and answers on this
   * platform, securely deleted. Answered once the file is rewritten (see CaseStore.wipe), which
   * takes longer the larger the database: adapters acknowledge first.
   */
  async forget(buttonId: string, origin: Origin): Promise<Message[]> {
    origin = await this.placed(origin);
    const lang = langOf(origin, '');
    if (buttonId !== `${FORGET_PREFIX}yes`) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.forgetCancelled[lang] }] }];
    const n = await this.store.deleteUser(origin.user, origin.platform);
    // Even with nothing deleted: a forget whose wipe was interrupted is finished by running it again.
    const clean = await this.wipe();
    return [{ ephemeral: true, blocks: [{ kind: 'text', text: (clean ? C.forgetDone : C.forgetPending)[lang].replace('{n}', String(n)) }] }];
  }

  /** Retention (see CaseStore.expire), with the file rewritten as forget does; returns how many cases went. */
  async expire(days: number): Promise<number> {
    const { cases, wipe } = await this.store.deleteExpired(days, this.now());
    if (wipe) await this.wipe();
    return cases;
  }

  /**
   * Scrubs the file off this thread (an SQLite file through the work's own connection); when
   * another process's older snapshot holds the old pages, tries again every minute until done.
   */
  private async wipe(): Promise<boolean> {
    const file = this.store.sql.file;
    const clean = await (file ? this.work.wipe(file) : this.store.wipe());
    if (!clean) this.scrubLater();
    return clean;
  }

  private scrubLater(): void {
    this.scrubRetry ??= setTimeout(() => {
      this.scrubRetry = undefined;
      this.wipe().catch(() => this.scrubLater());
    }, SCRUB_RETRY_MS).unref();
  }

  /**
   * Runs a command on a case and stores the transition, if the case is still as it was read: when
   * another process moved it on meanwhile (two sweeps, two shards' clicks), the machine decides
   * again on the case as it is now.
   */
  private async apply(found: Stored, command: Command, pasted?: Classified): Promise<Message[]> {
    const { state } = found;
    const t = step(state, command);
    const next = t.state ?? state;
    if (!(await this.store.append(state.caseId, t.records, next, { seq: found.seq }))) return this.again(state.caseId, (f) => this.apply(f, command, pasted));
    return this.render(t.replies, next, pasted);
  }

  /** Reads a case again after a stale write and decides anew; a case deleted meanwhile (forget) is gone. */
  private async again(caseId: string, decide: (found: Stored) => Promise<Message[]>): Promise<Message[]> {
    const found = await this.store.get(caseId);
    return found ? decide(found) : [];
  }

  private async render(replies: Reply[], state: CaseState, pasted?: Classified): Promise<Message[]> {
    const row = (await this.store.get(state.caseId))?.row;
    const storedFacts = row ? (JSON.parse(row.facts) as Facts) : undefined;
    // The newest log's facts tailor the current plan once the case has switched to it.
    const facts = pasted && pasted.ref.entry === state.plan.entry ? pasted.diagnosis.facts : storedFacts;
    const entry = this.kb.entries.find((e) => e.id === state.plan.entry);
    // Lines shown keep the flags the user added at steps they carried out.
    const kept = facts ? flagsApplied(state.tried, facts, this.kb) : [];
    const planned = new Map((entry && facts ? planSteps(entry, facts, this.kb, entry.steps, kept).steps : []).map((s) => [s.id, s]));
    const messages = renderReplies(replies, {
      kb: this.kb,
      state,
      ...(row ? { platform: row.platform } : {}),
      facts: facts ? describeFacts(facts, state.lang) : [],
      planned,
      ...(pasted ? { newDiagnosis: { diagnosis: pasted.diagnosis, plan: pasted.plan } } : {}),
      learned: await this.learner.record(state.plan.entry),
    });
    // The hand-over names the helpers of the case's place, as its admins set them.
    if (!row?.server || !messages.some((m) => m.pingHelpers)) return messages;
    const helpers = (await this.settings.of(row.platform, row.server)).helpers;
    return helpers ? messages.map((m) => (m.pingHelpers ? { ...m, helpers } : m)) : messages;
  }
}

/** The kb's entry ids closest to what was typed (shared words first), for a relabel that names none. */
function nearestEntries(kb: Kb, typed: string): string[] {
  const words = typed.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const shared = (id: string) => words.filter((w) => id.includes(w)).length;
  return kb.entries
    .map((e) => e.id)
    .sort((a, b) => shared(b) - shared(a) || a.localeCompare(b))
    .slice(0, 5);
}

const PLATFORM_NAMES: Record<string, string> = { discord: 'Discord', slack: 'Slack', terminal: 'the terminal' };

const isErrorShaped = (f: Facts) => !!(f.oom || f.exception || f.primarySignature || f.signatures.some((id) => id !== 'silent_exit'));

/** What a case can be opened on: an error, or a failure the kb knows without one (a silent crash). */
const opensCase = (d: Diagnosis) => isErrorShaped(d.facts) || d.category !== 'not_oom';

function problemsMessage(problems: IngestProblem[], lang: Lang): Message {
  const lines = problems.map((p) => C.fileProblems[p.kind][lang].replace('{file}', p.file));
  return { ephemeral: true, blocks: [{ kind: 'text', text: lines.join('\n') }] };
}

/** The work on this thread: the terminal's, and tests'. */
const inline = (kb: Kb, store: CaseStore): Work => {
  const classify = createClassifier(kb);
  return { classify: (text) => shownDiagnosis(classify(text)), storedPaste, storedFacts: factsForStorage, wipe: () => store.wipe() };
};
