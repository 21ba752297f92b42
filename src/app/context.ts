// Wires the engine to its edges: the kb from disk and the SQLite case store.
import { resolve } from 'node:path';
import { Engine } from '../conversation/engine.ts';
import { kbDir } from '../kb/cache.ts';
import { loadKb } from '../kb/load.ts';
import { CaseStore } from '../store/cases.ts';
import { openDb, type Db } from '../store/db.ts';
import type { Config } from './config.ts';
import { OcrPool } from '../ingest/ocr.ts';
import { WorkPool } from '../conversation/pool.ts';
import { unmeasured, type Instruments } from '../ops/instrument.ts';

export interface AppContext {
  db: Db;
  store: CaseStore;
  engine: Engine;
  close(): void;
}

/**
 * `pool`: classify in worker threads, for the bots, whose event loop must acknowledge every
 * command in time; the terminal has one user and classifies inline.
 */
export function openApp(config: Pick<Config, 'db' | 'idleMs' | 'ratePerMinute'> & Partial<Pick<Config, 'adaptive'>>, o: { pool?: boolean; instruments?: Instruments } = {}): AppContext {
  const measure = o.instruments ?? unmeasured;
  const kb = loadKb(kbDir());
  const db = openDb(resolve(config.db));
  const store = measure.store(new CaseStore(db));
  const pool = o.pool ? new WorkPool({ kb, kbDir: kbDir() }) : undefined;
  // The bots' OCR workers start now, warm for the first screenshot; the terminal's at its first
  // screenshot, so it pays nothing for OCR it never uses.
  const ocr = new OcrPool(pool ? { prepare: pool.prepareForOcr } : {});
  if (pool) void ocr.warm();
  const engine = new Engine({ kb, store, ocr: measure.ocr(ocr), idleMs: config.idleMs, ratePerMinute: config.ratePerMinute, ...(config.adaptive ? { adaptive: config.adaptive } : {}), ...(pool ? { work: measure.work(pool) } : {}) });
  return {
    db,
    store,
    engine,
    close: () => {
      void ocr.close();
      void pool?.close();
      db.close();
    },
  };
}
