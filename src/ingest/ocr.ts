// Offline OCR (English and Simplified Chinese) with a long-lived pool of tesseract.js workers.
// The language data ships with the project (@tesseract.js-data packages); nothing is downloaded:
// without a local langPath tesseract.js would fetch from a CDN and hang or crash offline.
// Chinese data more than doubles the time of a page (Tesseract retries every unsure word in each
// language), so it is used only on the lines preparation found Han script on (image.ts); and a
// page is read in pieces, cut between lines, so an idle pool reads one screenshot on every core.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createScheduler, createWorker, OEM, PSM, type Scheduler } from 'tesseract.js';
import type { Prepared, TextBand } from './image.ts';
import { rebuildText, type OcrLine } from './ocr-text.ts';

export interface OcrResult {
  /** What the screenshot shows, with lines the window wrapped put back together (see ocr-text.ts). */
  text: string;
  /** The text with every break joined that could be the window's where the screen does not tell; only when it reads otherwise. */
  otherReading?: string;
  /** Tesseract's mean word confidence, 0..100. */
  confidence: number;
  ms: number;
}

/**
 * Screenshot preparation (image.ts), loaded at the first screenshot: its canvas addon holds some
 * 14 MB that a bot, or a shard, that has read no screenshot does not need.
 */
export const prepareLazily = async (image: Buffer): Promise<Prepared> => (await import('./image.ts')).prepareForOcr(image);

/** A prepared screenshot (image.ts): the image and where its lines of text are. */
export type OcrInput = Pick<Extract<Prepared, { ok: true }>, 'grey' | 'page' | 'bands'>;

/** What the engine needs from OCR; tests and the CLI use the real pool. */
export interface Ocr {
  /** A screenshot as a file came, made ready to read (or refused); off the event loop where the pool was given a worker for it. */
  prepare(image: Buffer): Promise<Prepared>;
  recognize(image: OcrInput): Promise<OcrResult>;
  close(): Promise<void>;
}

export class OcrTimeout extends Error {}

const LANGS = ['eng', 'chi_sim'] as const;
/** The languages of a piece of a page: English alone, or with Chinese where it shows Han script. */
type Langs = 'eng' | 'eng+chi_sim';

/** tesseract.js wants one folder holding every language; the data packages live apart. */
function languageFolder(): string {
  const require = createRequire(import.meta.url);
  const packages = LANGS.map((lang) => dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)));
  // One folder per install, so a link never points into another (maybe deleted) checkout.
  const dir = join(tmpdir(), `comfyoom-tessdata-${createHash('sha1').update(packages.join('|')).digest('hex').slice(0, 10)}`);
  mkdirSync(dir, { recursive: true });
  for (const [i, lang] of LANGS.entries()) {
    const target = join(dir, `${lang}.traineddata.gz`);
    if (existsSync(target)) continue;
    const pkg = packages[i]!;
    try {
      symlinkSync(join(pkg, '4.0.0_best_int', `${lang}.traineddata.gz`), target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return dir;
}

export interface OcrPoolOptions {
  /** Workers per language set; bounded by the core count (each recognize keeps one core busy). */
  size?: number;
  /** Time budget per piece of a page; a stuck recognition is abandoned and the pool rebuilt. */
  timeoutMs?: number;
  /**
   * The workers stop once no screenshot has been read for this long (default a minute), and start
   * again at the next: they hold about 250 MB that a help channel's bot needs only now and then.
   */
  idleMs?: number;
  /**
   * `by-script` (the default): English data, with Chinese only on lines that show Han script, the
   * page cut into pieces. `eng+chi_sim`: both on every whole page, as the pool read before; the
   * bench's baseline.
   */
  languages?: 'by-script' | 'eng+chi_sim';
  /** Prepares a screenshot; the bots give it to their worker pool so decoding and scaling leave the event loop. */
  prepare?: (image: Buffer) => Promise<Prepared>;
}

/** Rows of the page, full width, read with one set of languages. */
export interface Piece {
  top: number;
  bottom: number;
  langs: Langs;
}

/** Pieces are not cut smaller than this many lines: each costs Tesseract a little to set up. */
const MIN_LINES = 3;

/**
 * The pieces a page is read in: runs of lines of one script, each cut between two lines, then the
 * longest cut in half until there are `pieces` (when lines allow), so idle workers share a page.
 */
export function planPieces(bands: TextBand[], height: number, pieces: number): Piece[] {
  if (!bands.length) return [{ top: 0, bottom: height, langs: 'eng' }];
  // Each cut is halfway across the gap between two lines.
  const edge = (i: number) => (i === 0 ? 0 : i === bands.length ? height : Math.round((bands[i - 1]!.bottom + bands[i]!.top) / 2));
  const runs: { from: number; to: number; han: boolean }[] = [];
  for (const [i, b] of bands.entries()) {
    const last = runs.at(-1);
    if (last && last.han === b.han) last.to = i + 1;
    else runs.push({ from: i, to: i + 1, han: b.han });
  }
  for (;;) {
    const longest = runs.reduce((a, r) => (r.to - r.from > a.to - a.from ? r : a));
    if (runs.length >= pieces || longest.to - longest.from < 2 * MIN_LINES) break;
    const middle = longest.from + ((longest.to - longest.from) >> 1);
    runs.splice(runs.indexOf(longest), 1, { ...longest, to: middle }, { ...longest, from: middle });
  }
  return runs.map((r) => ({ top: edge(r.from), bottom: edge(r.to), langs: r.han ? 'eng+chi_sim' : 'eng' }));
}

/**
 * A piece of the page as a binary PGM, which Tesseract reads without decoding. Tesseract's own
 * rectangle option is no way to read a piece: its LSTM then reads the lines from the wrong rows.
 */
function pgm(image: OcrInput, piece: Piece): Buffer {
  const { width } = image.page;
  const header = Buffer.from(`P5\n${width} ${piece.bottom - piece.top}\n255\n`, 'ascii');
  return Buffer.concat([header, image.grey.subarray(piece.top * width, piece.bottom * width)]);
}

export class OcrPool implements Ocr {
  private readonly schedulers = new Map<Langs, Promise<Scheduler>>();
  readonly size: number;
  private readonly timeoutMs: number;
  private readonly languages: NonNullable<OcrPoolOptions['languages']>;
  readonly prepare: (image: Buffer) => Promise<Prepared>;
  /** Jobs running now, and callers waiting for a worker: the time budget starts when a job runs. */
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly idleMs: number;
  private idle: NodeJS.Timeout | undefined;

  constructor(o: OcrPoolOptions = {}) {
    this.size = Math.max(1, Math.min(o.size ?? availableParallelism(), availableParallelism()));
    this.timeoutMs = o.timeoutMs ?? 20_000;
    this.idleMs = o.idleMs ?? 60_000;
    this.languages = o.languages ?? 'by-script';
    this.prepare = o.prepare ?? prepareLazily;
  }

  /** The workers of one language set, started at its first use (or by warm). */
  private workers(langs: Langs): Promise<Scheduler> {
    let started = this.schedulers.get(langs);
    if (!started) {
      started = (async () => {
        const langPath = languageFolder();
        const scheduler = createScheduler();
        const workers = await Promise.all(
          Array.from({ length: this.size }, () => createWorker(langs.split('+'), OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none', logger: () => undefined, errorHandler: () => undefined })),
        );
        for (const w of workers) {
          // A console is a uniform block of text lines.
          await w.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK, preserve_interword_spaces: '1' });
          scheduler.addWorker(w);
        }
        return scheduler;
      })();
      this.schedulers.set(langs, started);
      // A set that failed to start is started again at its next use.
      void started.catch(() => this.schedulers.get(langs) === started && this.schedulers.delete(langs));
    }
    return started;
  }

  /** Language sets whose workers are up (or starting). */
  get started(): number {
    return this.schedulers.size;
  }

  /** Starts every worker now, so the first screenshot does not wait for them. */
  async warm(): Promise<void> {
    const sets: Langs[] = this.languages === 'by-script' ? ['eng', 'eng+chi_sim'] : ['eng+chi_sim'];
    await Promise.allSettled(sets.map((langs) => this.workers(langs)));
  }

  private async acquire(): Promise<void> {
    clearTimeout(this.idle);
    if (this.running < this.size) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else if (--this.running === 0) (this.idle = setTimeout(() => void this.close(), this.idleMs)).unref();
  }

  async recognize(image: OcrInput): Promise<OcrResult> {
    const pieces: Piece[] =
      this.languages === 'by-script' ? planPieces(image.bands, image.page.height, this.size) : [{ top: 0, bottom: image.page.height, langs: 'eng+chi_sim' }];
    // From the first piece's start: waiting for a busy pool is not OCR time.
    let t0: number | undefined;
    const read = await Promise.all(
      pieces.map(async (piece) => {
        await this.acquire();
        t0 ??= performance.now();
        try {
          return await this.run(image, piece);
        } finally {
          this.release();
        }
      }),
    );
    const words = read.reduce((n, r) => n + r.words, 0);
    const confidence = words ? read.reduce((n, r) => n + r.confidence * r.words, 0) / words : 0;
    const lines = read.flatMap((r) => r.lines);
    const text = rebuildText(lines);
    const other = rebuildText(lines, 'every');
    return { text, ...(other !== text ? { otherReading: other } : {}), confidence, ms: performance.now() - t0! };
  }

  private async run(image: OcrInput, piece: Piece): Promise<{ lines: OcrLine[]; confidence: number; words: number }> {
    const scheduler = await this.workers(piece.langs);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OcrTimeout(`OCR took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      const { data } = await Promise.race([scheduler.addJob('recognize', pgm(image, piece), {}, { blocks: true }), timeout]);
      // chi_sim puts spaces between Han characters; they carry no meaning for matching.
      const han = (t: string) => t.replace(/([\u4e00-\u9fff])\s(?=[\u4e00-\u9fff])/g, '$1');
      const lines = (data.blocks ?? []).flatMap((b) =>
        b.paragraphs.flatMap((p) => p.lines.map((l) => ({ text: han(l.text).trimEnd(), left: l.bbox.x0, right: l.bbox.x1, top: piece.top + l.bbox.y0, bottom: piece.top + l.bbox.y1 }))),
      );
      const words = (data.blocks ?? []).reduce((n, b) => n + b.paragraphs.reduce((m, p) => m + p.lines.reduce((k, l) => k + l.words.length, 0), 0), 0);
      return { lines, confidence: data.confidence, words };
    } catch (e) {
      if (e instanceof OcrTimeout) {
        // The stuck job cannot be cancelled: drop these workers and start fresh next time.
        void this.close();
      }
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Drops every worker; a job after this starts new ones. */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const started = [...this.schedulers.values()];
    this.schedulers.clear();
    await Promise.allSettled(started.map(async (s) => (await s).terminate()));
  }
}
