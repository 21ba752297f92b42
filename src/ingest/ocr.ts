// Offline OCR (English and Simplified Chinese) with a long-lived pool of tesseract.js workers.
// The language data ships with the project (@tesseract.js-data packages); nothing is downloaded:
// without a local langPath tesseract.js would fetch from a CDN and hang or crash offline.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createScheduler, createWorker, OEM, PSM, type Scheduler } from 'tesseract.js';
import { rebuildText } from './ocr-text.ts';

export interface OcrResult {
  /** What the screenshot shows, with lines the window wrapped put back together (see ocr-text.ts). */
  text: string;
  /** Tesseract's mean word confidence, 0..100. */
  confidence: number;
  ms: number;
}

/** What the engine needs from OCR; tests and the CLI use the real pool. */
export interface Ocr {
  recognize(png: Buffer): Promise<OcrResult>;
  close(): Promise<void>;
}

export class OcrTimeout extends Error {}

const LANGS = ['eng', 'chi_sim'] as const;

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
  /** Workers; bounded by the core count (each recognize keeps one core busy). */
  size?: number;
  /** Time budget per image; a stuck recognition is abandoned and the pool rebuilt. */
  timeoutMs?: number;
}

export class OcrPool implements Ocr {
  private scheduler?: Promise<Scheduler>;
  readonly size: number;
  private readonly timeoutMs: number;
  /** Jobs running now, and callers waiting for a worker: the time budget starts when a job runs. */
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(o: OcrPoolOptions = {}) {
    this.size = Math.max(1, Math.min(o.size ?? availableParallelism(), availableParallelism()));
    this.timeoutMs = o.timeoutMs ?? 20_000;
  }

  private start(): Promise<Scheduler> {
    this.scheduler ??= (async () => {
      const langPath = languageFolder();
      const scheduler = createScheduler();
      const workers = await Promise.all(
        Array.from({ length: this.size }, () => createWorker([...LANGS], OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none', logger: () => undefined, errorHandler: () => undefined })),
      );
      for (const w of workers) {
        // A console is a uniform block of text lines.
        await w.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK, preserve_interword_spaces: '1' });
        scheduler.addWorker(w);
      }
      return scheduler;
    })();
    return this.scheduler;
  }

  private async acquire(): Promise<void> {
    if (this.running < this.size) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  async recognize(png: Buffer): Promise<OcrResult> {
    await this.acquire();
    try {
      return await this.run(png);
    } finally {
      this.release();
    }
  }

  private async run(png: Buffer): Promise<OcrResult> {
    const t0 = performance.now();
    const scheduler = await this.start();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OcrTimeout(`OCR took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      const { data } = await Promise.race([scheduler.addJob('recognize', png, {}, { blocks: true }), timeout]);
      // chi_sim puts spaces between Han characters; they carry no meaning for matching.
      const han = (t: string) => t.replace(/([\u4e00-\u9fff])\s(?=[\u4e00-\u9fff])/g, '$1');
      const lines = (data.blocks ?? []).flatMap((b) =>
        b.paragraphs.flatMap((p) => p.lines.map((l) => ({ text: han(l.text).trimEnd(), left: l.bbox.x0, right: l.bbox.x1, top: l.bbox.y0, bottom: l.bbox.y1 }))),
      );
      return { text: rebuildText(lines), confidence: data.confidence, ms: performance.now() - t0 };
    } catch (e) {
      if (e instanceof OcrTimeout) {
        // The stuck job cannot be cancelled: drop these workers and start fresh next time.
        const old = this.scheduler;
        this.scheduler = undefined;
        void old?.then((s) => s.terminate()).catch(() => undefined);
      }
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    const s = this.scheduler;
    this.scheduler = undefined;
    if (s) await (await s).terminate();
  }
}
