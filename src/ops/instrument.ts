// The engine's edges (case store, work pool, OCR) wrapped to feed the metrics, so the engine itself
// needs no hook: whatever writes a case (a command, a button, the idle sweep) is counted where it
// is stored, and only once it is.
import type { Histogram } from 'prom-client';
import type { Work } from '../conversation/engine.ts';
import type { Ocr } from '../ingest/ocr.ts';
import type { CaseStore } from '../store/cases.ts';
import type { Metrics } from './metrics.ts';

export interface Instruments {
  store(store: CaseStore): CaseStore;
  work(work: Work): Work;
  ocr(ocr: Ocr): Ocr;
}

/** Nothing measured: the terminal mode, and bots started without metrics. */
export const unmeasured: Instruments = { store: (s) => s, work: (w) => w, ocr: (o) => o };

export function instruments(m: Metrics): Instruments {
  return { store: (s) => countedStore(s, m), work: (w) => timedWork(w, m.classify), ocr: (o) => timedOcr(o, m.ocr) };
}

async function timed<T>(histogram: Histogram, run: () => Promise<T>): Promise<T> {
  const end = histogram.startTimer();
  try {
    return await run();
  } finally {
    end();
  }
}

const timedWork = (w: Work, h: Histogram): Work => ({
  classify: (text) => timed(h, async () => w.classify(text)),
  storedPaste: (text) => w.storedPaste(text),
  storedFacts: (facts) => w.storedFacts(facts),
  wipe: (file) => w.wipe(file),
});

const timedOcr = (o: Ocr, h: Histogram): Ocr => ({ prepare: (image) => o.prepare(image), recognize: (png) => timed(h, () => o.recognize(png)), close: () => o.close() });

type Writes = { [K in 'create' | 'append']: (args: Parameters<CaseStore[K]>, result: ReturnType<CaseStore[K]>) => void };

/** What a stored transition means for the case counters. */
const counting = (m: Metrics): Writes => ({
  create: ([c], result) => {
    if ('created' in result) m.opened.inc({ platform: c.platform, entry: c.entry });
  },
  append: ([, records, state], stored) => {
    if (!stored) return;
    for (const r of records) {
      if (r.type === 'resolved') m.resolved.inc({ entry: state.plan.entry, resolution: r.resolution });
      if (r.type === 'escalated') m.escalated.inc({ entry: state.plan.entry });
    }
  },
});

/**
 * The store with every method call watched: a throw (or, for a store that answers with promises,
 * a rejection) counts as a store error under the method's name, and stored writes count cases.
 * Its interface is unchanged; each method runs on the store itself.
 */
function countedStore(store: CaseStore, m: Metrics): CaseStore {
  const writes = counting(m);
  const failed = (operation: string) => (e: unknown) => {
    m.storeErrors.inc({ operation });
    throw e;
  };
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      const after = key in writes ? (writes[key as keyof Writes] as unknown as (args: unknown[], result: unknown) => void) : undefined;
      return (...args: unknown[]) => {
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (e) {
          return failed(key)(e);
        }
        if (result instanceof Promise) return result.then((r: unknown) => (after?.(args, r), r), failed(key));
        after?.(args, result);
        return result;
      };
    },
  });
}
