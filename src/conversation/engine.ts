// The platform-neutral engine: pastes and button presses in, neutral messages out. It ties the
// pure parts (classifier, planner, state machine, renderer) to the case store; chat adapters and
// the terminal only translate its messages. This class is their one door; the work is done by its
// parts (intake.ts, opening.ts, answers.ts, cases.ts, commands.ts), which share one Context (context.ts).
import { randomBytes } from 'node:crypto';
import { createClassifier } from '../classify/classify.ts';
import type { Lang } from '../i18n/messages.ts';
import type { Kb } from '../kb/load.ts';
import type { Text } from '../kb/schema.ts';
import { takesTime, type Inbound } from '../ingest/ingest.ts';
import { httpPasteReader, type PasteReader } from '../ingest/paste-links.ts';
import { Learner, type AdaptiveSetting } from '../learn/index.ts';
import type { Ocr } from '../ingest/ocr.ts';
import type { CaseStore } from '../store/cases.ts';
import type { StoreError } from '../store/errors.ts';
import type { Scope } from '../store/stats.ts';
import { Settings } from '../settings/settings.ts';
import { isOptedOut } from '../settings/place.ts';
import { SettingsStore } from '../store/settings.ts';
import { Answers } from './answers.ts';
import { Cases, type CasePlace, type Swept } from './cases.ts';
import { Commands } from './commands.ts';
import type { Context, Work } from './context.ts';
import { Intake } from './intake.ts';
import type { CaseState } from './machine.ts';
import { Opening } from './opening.ts';
import type { Origin } from './origin.ts';
import { Pace, type Lane } from './pace.ts';
import { Reader } from './reader.ts';
import type { Message } from './render.ts';
import { factsForStorage, shownDiagnosis, storedPaste } from './storable.ts';

export type { Work } from './context.ts';
export { answersScreenshot, OCR_GATE, WATCH_CONFIDENCE } from './intake.ts';
export { fingerprint } from './opening.ts';
export { langFor, langOf, type Origin } from './origin.ts';

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

export class Engine {
  readonly kb: Kb;
  /** Orders each case's steps from the outcomes recorded so far (src/learn). */
  readonly learner: Learner;
  /** What each place's admins set (src/settings). */
  readonly settings: Settings;
  private readonly store: CaseStore;
  private readonly now: () => number;
  private readonly pace = new Pace();
  private readonly intake: Intake;
  private readonly opening: Opening;
  private readonly answers: Answers;
  private readonly cases: Cases;
  private readonly commands: Commands;

  constructor(o: EngineOptions) {
    this.kb = o.kb;
    this.store = o.store;
    this.now = o.now ?? Date.now;
    this.learner = new Learner(o.store.sql, o.kb, o.adaptive ?? 'auto');
    this.settings = o.settings ?? new Settings(new SettingsStore(o.store.sql));
    const ctx: Context = { kb: o.kb, store: o.store, work: o.work ?? inline(o.kb, o.store), now: this.now, learner: this.learner, settings: this.settings, pace: this.pace };
    const reader = new Reader(ctx);
    this.cases = new Cases(ctx, o.idleMs ?? 24 * 60 * 60 * 1000);
    this.answers = new Answers(ctx, this.cases, reader);
    // Never starting with '-': a case id is typed as a command-line argument (comfyoom relabel ID ...).
    const newId = o.newId ?? (() => randomBytes(6).toString('base64url').replace(/^-/, 'x'));
    this.opening = new Opening(ctx, this.cases, this.answers, reader, newId);
    this.intake = new Intake(ctx, this.cases, this.answers, this.opening, reader, {
      ocr: o.ocr,
      readPaste: o.readPaste ?? httpPasteReader(),
      ratePerMinute: o.ratePerMinute ?? 6,
      imagesPerMinute: o.imagesPerMinute ?? 3,
    });
    this.commands = new Commands(ctx);
  }

  /**
   * Resolves in a later turn of the event loop, when few other pieces go on in it (see pace.ts).
   * Adapters take an `ack` turn before reading a delivery and a `work` turn after acknowledging
   * it; the engine a `work` turn after each piece of Work, whose results may all arrive at once.
   */
  turn(lane?: Lane): Promise<void> {
    return this.pace.turn(lane);
  }

  /**
   * What adapters call: a message's text and attachments, for a new case or (with `caseId`) as a
   * new log in an open one. Files that cannot be read are reported, the rest is diagnosed.
   */
  receive(origin: Origin, inbound: Inbound, caseId?: string): Promise<Message[]> {
    return this.intake.receive(origin, inbound, caseId);
  }

  /**
   * A message posted where the bot listens, not addressed to it: the owner's new log or typed
   * answer in their case's thread, the log a case in a thread-less channel asked for, anything in
   * a direct conversation (a greeting there gets how to start). Chat that answers nothing, and
   * anyone else's messages, get nothing.
   */
  posted(origin: Origin, inbound: Inbound): Promise<Message[]> {
    return this.intake.posted(origin, inbound);
  }

  /** The "open my own case" button: the draft becomes a case of its own, in a new thread the adapter opens. */
  openDraft(buttonId: string, origin: Origin): Promise<Message[]> {
    return this.opening.openDraft(buttonId, origin);
  }

  /** Whether reading a message takes long enough for the adapters to show the bot at work (see ingest.ts). */
  takesTime(inbound: Inbound): boolean {
    return takesTime(inbound);
  }

  /**
   * Watch mode: whether a message (its text and text files, as a case would read them; no OCR)
   * is an out-of-memory error the classifier is sure enough of to offer help unasked.
   */
  worthOffering(origin: Origin, inbound: Inbound): Promise<boolean> {
    return this.intake.worthOffering(origin, inbound);
  }

  /** A quick look without opening a case: for watch modes that offer help only on real OOMs. */
  peek(text: string): Promise<{ category: string; confidence: number; oom: boolean }> {
    return this.intake.peek(text);
  }

  /**
   * Whether text is error-shaped (an exception line, or an error wording the kb knows): what the
   * adapters accept as a log, and what a case accepts as its new log. "thanks, trying now" is not.
   */
  looksLikeLog(text: string): Promise<boolean> {
    return this.intake.looksLikeLog(text);
  }

  /** Diagnoses a paste and opens a case that walks its owner through the plan. */
  open(origin: Origin, text: string): Promise<Message[]> {
    return this.opening.open(origin, text);
  }

  /** A button press, from anyone; the machine decides whether it counts. */
  press(buttonId: string, origin: Origin): Promise<Message[]> {
    return this.answers.press(buttonId, origin);
  }

  /** Whether typed text answers the case's open question (a node's name, "AMD", "don't know"). */
  answersQuestion(caseId: string, text: string): Promise<boolean> {
    return this.answers.answersQuestion(caseId, text);
  }

  /** A new log pasted into an open case. */
  paste(caseId: string, text: string, origin: Origin): Promise<Message[]> {
    return this.answers.paste(caseId, text, origin);
  }

  /**
   * Reminds the open cases on `platforms` idle for half the idle time, once, and abandons those idle
   * for longer than all of it; returns what to tell each. Only a process that can post to a platform
   * sweeps its cases: another one (a Slack bot on another machine, a terminal on the bot's database)
   * would close them without a word to their users.
   */
  sweep(platforms: readonly string[]): Promise<Swept[]> {
    return this.cases.sweep(platforms);
  }

  /** The question a case is waiting on, shown again (after a restart, or on request). */
  current(caseId: string): Promise<Message[]> {
    return this.cases.current(caseId);
  }

  /** Stops a case nobody could answer (the bot may post neither where it was asked nor to its owner): no stranded open case. */
  withdraw(caseId: string): Promise<void> {
    return this.cases.withdraw(caseId);
  }

  /**
   * The message a case was opened from was deleted by its author: the case stops, as its owner
   * would stop it. Says where the case ran, for the adapter to take down the public diagnosis that
   * quoted the message.
   */
  sourceDeleted(platform: string, source: string): Promise<{ channel: string | null; thread: string | null } | undefined> {
    return this.cases.sourceDeleted(platform, source);
  }

  /**
   * A moderator's correction: case `caseId` really was kb entry `entryId`. Stats count it under
   * that entry from now on, and the learning counts move its first diagnosis's outcomes there. Only
   * cases in the moderator's `scope` (their server or workspace) are found; the CLI has none.
   */
  relabel(caseId: string, entryId: string, who: { actor: string; moderator: boolean; lang: Lang; scope?: Scope }): Promise<{ relabelled: boolean; message: Message }> {
    return this.commands.relabel(caseId, entryId, who);
  }

  /** What a case is, for a user coming back to it: its title as they were shown it, and when it opened. */
  about(caseId: string): Promise<{ title: Text; openedAt: number } | undefined> {
    return this.cases.about(caseId);
  }

  lastOpenCase(origin: Origin): Promise<string | undefined> {
    return this.cases.lastOpenCase(origin);
  }

  state(caseId: string): Promise<CaseState | undefined> {
    return this.cases.state(caseId);
  }

  /** Where a case lives, for adapters posting about it (the idle notice, a retired button). */
  place(caseId: string): Promise<CasePlace | undefined> {
    return this.cases.place(caseId);
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
  statsReport(scope: Scope, since: string | undefined, lang: Lang, view: { all: boolean; seeAll: string }): Promise<{ text: string; chart: Buffer } | undefined> {
    return this.commands.statsReport(scope, since, lang, view);
  }

  /**
   * The weekly digest of one server for its moderators' channel, once a week: the week is claimed
   * in the database before anything is posted, so two processes or a restart never post it twice.
   * Undefined when this week's was claimed already.
   */
  weeklyDigest(platform: string, server: string, lang: Lang = 'en'): Promise<{ text: string; chart: Buffer } | undefined> {
    return this.commands.weeklyDigest(platform, server, lang);
  }

  /**
   * A request that failed because the store did, as its sender hears it: nothing of it was saved
   * (each answer is one transaction). Undefined for any other failure. `problem` is for the log.
   */
  storeFailure(e: unknown, lang: Lang): { problem: StoreError; message: Message } | undefined {
    return this.commands.storeFailure(e, lang);
  }

  /** `forget`, first step: what would go, and the buttons to confirm or cancel. */
  forgetPrompt(origin: Origin): Promise<Message[]> {
    return this.commands.forgetPrompt(origin);
  }

  /**
   * `forget`, confirmed or cancelled: the presser's own cases, drafts and answers on this
   * platform, securely deleted. Answered once the file is rewritten (see CaseStore.wipe), which
   * takes longer the larger the database: adapters acknowledge first.
   */
  forget(buttonId: string, origin: Origin): Promise<Message[]> {
    return this.commands.forget(buttonId, origin);
  }

  /** Retention (see CaseStore.expire), with the file rewritten as forget does; returns how many cases went. */
  expire(days: number): Promise<number> {
    return this.commands.expire(days);
  }
}

/** The work on this thread: the terminal's, and tests'. */
const inline = (kb: Kb, store: CaseStore): Work => {
  const classify = createClassifier(kb);
  return { classify: (text) => shownDiagnosis(classify(text)), storedPaste, storedFacts: factsForStorage, wipe: () => store.wipe() };
};
