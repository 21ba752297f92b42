// Wires the engine to its edges: the kb from disk and the SQLite case store.
import { resolve } from 'node:path';
import { Engine } from '../conversation/engine.ts';
import { DEFAULT_KB_DIR, loadKb } from '../kb/load.ts';
import { CaseStore } from '../store/cases.ts';
import { openDb, type Db } from '../store/db.ts';
import type { Config } from './config.ts';
import { OcrPool } from '../ingest/ocr.ts';

export const kbDir = () => process.env.COMFYOOM_KB || DEFAULT_KB_DIR;

export interface AppContext {
  db: Db;
  store: CaseStore;
  engine: Engine;
  close(): void;
}

export function openApp(config: Pick<Config, 'db' | 'idleMs' | 'ratePerMinute'>): AppContext {
  const kb = loadKb(kbDir());
  const db = openDb(resolve(config.db));
  const store = new CaseStore(db);
  // Workers start on the first screenshot, so the terminal mode pays nothing for OCR it never uses.
  const ocr = new OcrPool();
  const engine = new Engine({ kb, store, ocr, idleMs: config.idleMs, ratePerMinute: config.ratePerMinute });
  return {
    db,
    store,
    engine,
    close: () => {
      void ocr.close();
      db.close();
    },
  };
}
