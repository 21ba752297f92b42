// Messages coming in: which are for a case (a new one, or the one in their thread), read with their
// files, links and screenshots, within each user's rate limits; and the quick looks adapters take
// before deciding whether a message is a log at all.
import type { Diagnosis } from '../classify/classify.ts';
import type { Lang } from '../i18n/messages.ts';
import { ingest, kindOf, type Attachment, type Inbound, type Ingested, type IngestProblem } from '../ingest/ingest.ts';
import { hasPasteLink, pasteLinks, type PasteReader } from '../ingest/paste-links.ts';
import type { Ocr } from '../ingest/ocr.ts';
import type { Answers } from './answers.ts';
import type { Cases } from './cases.ts';
import type { Context } from './context.ts';
import type { Opening } from './opening.ts';
import { langOf, placed, type Origin } from './origin.ts';
import { weightOf } from './pace.ts';
import { isErrorShaped, type Reader } from './reader.ts';
import type { Message } from './render.ts';
import { isSentence } from './replies.ts';
import { C } from './strings.ts';

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

/** Watch mode speaks up only when the classifier is this sure it is an OOM. */
export const WATCH_CONFIDENCE = 0.8;

function problemsMessage(problems: IngestProblem[], lang: Lang): Message {
  const lines = problems.map((p) => C.fileProblems[p.kind][lang].replace('{file}', p.file));
  return { ephemeral: true, blocks: [{ kind: 'text', text: lines.join('\n') }] };
}

export interface IntakeOptions {
  ocr?: Ocr;
  readPaste: PasteReader;
  ratePerMinute: number;
  imagesPerMinute: number;
}

export class Intake {
  /** Recent paste times per platform user, for the rate limits (kept in memory: they protect the bot, not a record). */
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly ctx: Context,
    private readonly cases: Cases,
    private readonly answers: Answers,
    private readonly opening: Opening,
    private readonly reader: Reader,
    private readonly o: IntakeOptions,
  ) {}

  async receive(origin: Origin, inbound: Inbound, caseId?: string): Promise<Message[]> {
    const { store } = this.ctx;
    origin = await placed(this.ctx.settings, origin);
    const early = langOf(origin, inbound.text ?? '');
    // A source that opened a case already (a double click, a retry) is answered before any work.
    const opened = !caseId && origin.source !== undefined ? await store.fromSource(origin.platform, origin.source) : undefined;
    if (opened) return this.opening.alreadyOpened(opened, early);
    const inThread = !caseId && origin.thread !== undefined ? await store.caseInThread(origin.platform, origin.thread) : undefined;
    // "@ComfyOOM" alone in a case's thread: the question again (e.g. after a post failed).
    if (inThread && !inbound.text?.trim() && !inbound.attachments?.length) return this.cases.current(inThread);
    // The owner's words in their case's thread are for the case: a new log, or an answer typed to its
    // question; anything else addressed to the bot there asks where the case stands.
    const asked = inThread ? await this.cases.state(inThread) : undefined;
    if (inThread && asked?.owner === origin.user) return this.receive(origin, inbound, inThread);
    if (this.limited(origin, 'paste')) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.rateLimited[early] }] }];
    const images = (inbound.attachments ?? []).filter((a) => kindOf(a) === 'image').length;
    if (images && this.o.ocr && this.limited(origin, 'image', images)) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.imageRateLimited[early] }] }];
    // Links to paste sites are read like attached logs.
    const links = pasteLinks(inbound.text ?? '', this.o.readPaste);
    const got = await ingest(this.spaced(links.length ? { ...inbound, attachments: [...(inbound.attachments ?? []), ...links] } : inbound), this.o.ocr);
    const lang = caseId ? ((await this.cases.state(caseId))?.lang ?? langOf(origin, got.text)) : langOf(origin, got.text);
    const notes = got.problems.length ? [problemsMessage(got.problems, lang)] : [];
    if (!got.text.trim() && notes.length) return notes;
    if (got.ocr.length && !got.hasTypedText) {
      const doubt = await this.ocrDoubt(got, lang);
      if (doubt) return [...notes, doubt];
    }
    return [...notes, ...(caseId ? await this.answers.paste(caseId, got.text, origin) : await this.opening.open(origin, got.text))];
  }

  async posted(origin: Origin, inbound: Inbound): Promise<Message[]> {
    origin = await placed(this.ctx.settings, origin);
    const text = inbound.text ?? '';
    // A zip or .gz is most often the Desktop app's logs folder, sent as the log itself.
    const logFile = inbound.attachments?.some((a) => /\.(txt|log)$/i.test(a.name) || kindOf(a) === 'archive') ?? false;
    const looksLikeLog = async () => logFile || (await this.looksLikeLog(text));
    if (origin.thread !== undefined) {
      const caseId = await this.ctx.store.caseInThread(origin.platform, origin.thread);
      const state = caseId ? await this.cases.state(caseId) : undefined;
      if (caseId && state?.owner === origin.user) {
        const forCase = state.awaiting === 'log' || state.awaiting === 'question' || this.reader.readReply(text) !== undefined || (await looksLikeLog());
        return forCase ? this.receive(origin, inbound, caseId) : [];
      }
      if (caseId || !origin.direct) return [];
      if (inbound.attachments?.length || (await looksLikeLog())) return this.receive(origin, inbound);
      return text.trim() ? [{ blocks: [{ kind: 'text', text: C.howToStart[langOf(origin, text)] }] }] : [];
    }
    // A case that could not get a thread runs in its channel and reads only the log it asked for.
    const caseId = await this.cases.lastOpenCase(origin);
    const found = caseId ? await this.ctx.store.get(caseId) : undefined;
    return found && !found.row.thread && found.state.awaiting === 'log' && (await looksLikeLog()) ? this.receive(origin, inbound, caseId) : [];
  }

  /**
   * The confidence gate for screenshots: when OCR was unsure or what it read matches nothing
   * specific, show what was read and ask for the text rather than guess.
   */
  private async ocrDoubt({ text, ocr, otherText }: Pick<Ingested, 'text' | 'ocr' | 'otherText'>, lang: Lang): Promise<Message | undefined> {
    const ocrConfidence = Math.min(...ocr.map((r) => r.confidence));
    if (answersScreenshot(ocrConfidence, await this.reader.diagnose(text), otherText === undefined ? undefined : await this.reader.diagnose(otherText))) return undefined;
    // What OCR read is the user's screen: redacted like a stored paste, and shown to them alone where the platform can.
    const excerpt = await this.ctx.work.storedPaste(text.trim().split('\n').filter((l) => l.trim()).slice(-12).join('\n').slice(-900));
    return {
      ephemeral: true,
      blocks: [
        { kind: 'text', text: C.ocrDoubt[lang] },
        { kind: 'code', text: excerpt || '(nothing)' },
        { kind: 'note', text: C.ocrDoubtAsk[lang].replace('{confidence}', String(Math.round(ocrConfidence))) },
      ],
    };
  }

  async worthOffering(origin: Origin, inbound: Inbound): Promise<boolean> {
    // Each look reads the message's files: one user's burst of large logs is looked at as often
    // as they could paste them (a pressed offer counts again, as a paste), the rest passed by.
    if (this.limited(origin, 'look')) return false;
    const files = (inbound.attachments ?? []).filter((a) => kindOf(a) === 'text');
    const got = await ingest(this.spaced({ ...inbound, attachments: files }));
    const seen = await this.peek(got.text);
    return seen.oom && seen.confidence >= WATCH_CONFIDENCE;
  }

  async peek(text: string): Promise<{ category: string; confidence: number; oom: boolean }> {
    const d = await this.reader.diagnose(text);
    return { category: d.category, confidence: d.confidence, oom: d.category !== 'not_oom' };
  }

  async looksLikeLog(text: string): Promise<boolean> {
    return (text.trim() !== '' && !isSentence(text) && isErrorShaped((await this.reader.diagnose(text)).facts)) || hasPasteLink(text);
  }

  /** Attachments as ingest reads them, each decoded in a turn of its own weight: a few ms of the event loop per MB (see pace.ts). */
  private spaced(inbound: Inbound): Inbound {
    const spaced = (a: Attachment): Attachment => ({
      ...a,
      read: async () => {
        const bytes = await a.read();
        await this.ctx.pace.turn('work', weightOf(bytes.length));
        return bytes;
      },
    });
    return inbound.attachments?.length ? { ...inbound, attachments: inbound.attachments.map(spaced) } : inbound;
  }

  /** True when this user has sent too much in the last minute; records the attempt otherwise. */
  private limited(origin: Origin, kind: 'paste' | 'image' | 'look', count = 1): boolean {
    const key = `${kind}:${origin.platform}:${origin.user}`;
    const now = this.ctx.now();
    const limit = kind === 'image' ? this.o.imagesPerMinute : this.o.ratePerMinute;
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
}
