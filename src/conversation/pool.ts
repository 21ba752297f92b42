// Work that would hold up the event loop, in worker threads: a chat bot must acknowledge every
// command within Discord's and Slack's three seconds however many 8 MB logs are being read, and
// whatever else its event loop has to do. The pool (piscina) is sized to the cores, leaving one to
// the event loop; each worker loads the kb once. It runs the engine's Work (see engine.ts) as named
// tasks (pool-tasks.ts): every paste is classified and redacted there, whatever its size, since the
// event loop's time is what runs short under load, and a forget's rewrite of the database file
// runs there through a connection of its own.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Diagnosis } from '../classify/classify.ts';
import type { Facts } from '../classify/facts/types.ts';
import type { Prepared } from '../ingest/image.ts';
import type { Kb } from '../kb/load.ts';
import type { Work } from './engine.ts';

export interface WorkPoolOptions {
  /** The kb the engine uses, and the folder it was loaded from (each worker loads it again). */
  kb: Kb;
  kbDir: string;
  /** Worker threads; default one per core but the event loop's, at least one. */
  threads?: number;
  /** A worker stops after this long without a task (default a minute). */
  idleMs?: number;
}

/** A diagnosis as it crosses threads: the kb entry by id, found again in this thread's kb. */
export type WireDiagnosis = Omit<Diagnosis, 'entry'> & { entry: string };

const IDLE_MS = 60_000;

export const defaultThreads = () => Math.max(1, availableParallelism() - 1);

export class WorkPool implements Work {
  private readonly piscina: Piscina;
  private readonly kb: Kb;
  readonly threads: number;

  constructor(o: WorkPoolOptions) {
    this.kb = o.kb;
    this.threads = o.threads ?? defaultThreads();
    this.piscina = new Piscina({
      filename: new URL('./pool-worker.mjs', import.meta.url).href,
      // A worker holds its own kb and classifier (about 55 MB): started at the first paste, stopped
      // after a quiet minute, so an idle bot stays small; starting one takes a fraction of a second.
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: o.idleMs ?? IDLE_MS,
      workerData: { kbDir: o.kbDir },
    });
  }

  /** Worker threads running now. */
  get threadsUp(): number {
    return this.piscina.threads.length;
  }

  /** Tasks the workers have finished: how a test tells that the work left this thread. */
  get completed(): number {
    return this.piscina.completed;
  }

  readonly classify = async (text: string): Promise<Diagnosis> => {
    const wire = (await this.piscina.run(text, { name: 'classify' })) as WireDiagnosis;
    const entry = this.kb.entries.find((e) => e.id === wire.entry);
    if (!entry) throw new Error(`the classifier worker answered with entry ${wire.entry}, which this kb does not have`);
    return { ...wire, entry };
  };

  readonly storedPaste = (text: string): Promise<string> => this.piscina.run(text, { name: 'storedPaste' });

  readonly storedFacts = (facts: Facts): Promise<Facts> => this.piscina.run(facts, { name: 'storedFacts' });

  /** For the OCR pool (ocr.ts): the image's pixels are worked on here, not on the event loop. */
  readonly prepareForOcr = (image: Buffer): Promise<Prepared> => this.piscina.run(image, { name: 'prepareForOcr' });

  readonly wipe = (file: string): Promise<boolean> => this.piscina.run(file, { name: 'wipe' });

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
