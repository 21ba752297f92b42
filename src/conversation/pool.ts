// Work that would hold up the event loop, in worker threads: a chat bot must acknowledge every
// command within Discord's and Slack's three seconds however many 8 MB logs are being read. The
// pool (piscina) is sized to the cores, leaving one to the event loop; each worker loads the kb
// once. Classification is its first task; OCR preparation can join it as another named task.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { createClassifier, type Classifier, type Diagnosis } from '../classify/classify.ts';
import type { Kb } from '../kb/load.ts';

export interface WorkPoolOptions {
  /** The kb the engine uses, and the folder it was loaded from (each worker loads it again). */
  kb: Kb;
  kbDir: string;
  /** Worker threads; default one per core but the event loop's, at least one. */
  threads?: number;
  /** Pastes shorter than this are classified inline: a few milliseconds, less than the hop to a worker. */
  inlineBelow?: number;
}

/** A diagnosis as it crosses threads: the kb entry by id, found again in this thread's kb. */
export type WireDiagnosis = Omit<Diagnosis, 'entry'> & { entry: string };

export const defaultThreads = () => Math.max(1, availableParallelism() - 1);

export class WorkPool {
  private readonly piscina: Piscina;
  private readonly kb: Kb;
  private readonly inline: Classifier;
  private readonly inlineBelow: number;
  readonly threads: number;

  constructor(o: WorkPoolOptions) {
    this.kb = o.kb;
    this.inline = createClassifier(o.kb);
    this.inlineBelow = o.inlineBelow ?? 4096;
    this.threads = o.threads ?? defaultThreads();
    this.piscina = new Piscina({
      filename: new URL('./pool-worker.mjs', import.meta.url).href,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      workerData: { kbDir: o.kbDir },
    });
  }

  /** The engine's classifier (see AsyncClassifier). */
  readonly classify = async (text: string): Promise<Diagnosis> => {
    if (text.length < this.inlineBelow) return this.inline(text);
    const wire = (await this.piscina.run(text, { name: 'classify' })) as WireDiagnosis;
    const entry = this.kb.entries.find((e) => e.id === wire.entry);
    if (!entry) throw new Error(`the classifier worker answered with entry ${wire.entry}, which this kb does not have`);
    return { ...wire, entry };
  };

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
