// Wires the engine to its edges: the kb from disk and the case store (the SQLite file, or PostgreSQL).
import { resolve } from 'node:path';
import { Engine } from '../conversation/engine.ts';
import { kbDir } from '../kb/dir.ts';
import { loadKb } from '../kb/load.ts';
import { CaseStore } from '../store/cases.ts';
import { openStore } from '../store/open.ts';
import { SettingsStore } from '../store/settings.ts';
import { Settings } from '../settings/settings.ts';
import type { Sql } from '../store/sql.ts';
import type { Config } from './config.ts';
import { OcrPool, prepareLazily, type Ocr } from '../ingest/ocr.ts';
import { ocrThroughManager, type Channel } from '../ingest/shared-ocr.ts';
import { WorkPool } from '../conversation/pool.ts';
import { unmeasured, type Instruments } from '../ops/instrument.ts';

export interface AppContext {
  db: Sql;
  store: CaseStore;
  engine: Engine;
  /** The screenshots' reader: this process's pool, or its shard manager's. */
  ocr: Ocr;
  close(): Promise<void>;
}

/**
 * `pool`: classify in worker threads, for the bots, whose event loop must acknowledge every
 * command in time; the terminal has one user and classifies inline. `ocrAt`: a shard's channel to
 * its manager, whose OCR workers read its screenshots (shared-ocr.ts).
 */
export async function openApp(config: Pick<Config, 'db' | 'idleMs' | 'ratePerMinute'> & Partial<Pick<Config, 'adaptive' | 'databaseUrl' | 'language'>>, o: { pool?: boolean; instruments?: Instruments; ocrAt?: Channel } = {}): Promise<AppContext> {
  const measure = o.instruments ?? unmeasured;
  const kb = loadKb(kbDir());
  const db = await openStore({ db: resolve(config.db), databaseUrl: config.databaseUrl });
  const store = measure.store(new CaseStore(db));
  const pool = o.pool ? new WorkPool({ kb, kbDir: kbDir() }) : undefined;
  // OCR's workers (about 250 MB) start at the first screenshot and stop after a quiet minute.
  const ocr = o.ocrAt ? ocrThroughManager(o.ocrAt, pool?.prepareForOcr ?? prepareLazily) : new OcrPool(pool ? { prepare: pool.prepareForOcr } : {});
  const engine = new Engine({ kb, store, ocr: measure.ocr(ocr), idleMs: config.idleMs, ratePerMinute: config.ratePerMinute, ...(config.adaptive ? { adaptive: config.adaptive } : {}), ...(pool ? { work: measure.work(pool) } : {}), settings: new Settings(new SettingsStore(db), config.language ? { language: config.language } : {}) });
  return {
    db,
    store,
    engine,
    ocr,
    close: async () => {
      void ocr.close();
      void pool?.close();
      await db.close();
    },
  };
}
