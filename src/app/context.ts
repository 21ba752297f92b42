// Wires the engine to its edges: the kb from disk and the SQLite case store.
import { resolve } from 'node:path';
import { Engine } from '../conversation/engine.ts';
import { DEFAULT_KB_DIR, loadKb } from '../kb/load.ts';
import { CaseStore } from '../store/cases.ts';
import { openDb, type Db } from '../store/db.ts';

export const DEFAULT_DB = 'data/comfyoom.db';

export const dbPath = (flag?: string) => resolve(flag ?? process.env.COMFYOOM_DB ?? DEFAULT_DB);
export const kbDir = () => process.env.COMFYOOM_KB || DEFAULT_KB_DIR;

/** Hours without an answer before a case is abandoned (COMFYOOM_IDLE_HOURS, default 24). */
export function idleMs(): number {
  const hours = Number(process.env.COMFYOOM_IDLE_HOURS ?? 24);
  if (!Number.isFinite(hours) || hours <= 0) throw new Error('COMFYOOM_IDLE_HOURS must be a positive number of hours');
  return hours * 3_600_000;
}

export interface AppContext {
  db: Db;
  store: CaseStore;
  engine: Engine;
  close(): void;
}

export function openApp(opts: { db?: string } = {}): AppContext {
  const kb = loadKb(kbDir());
  const db = openDb(dbPath(opts.db));
  const store = new CaseStore(db);
  return { db, store, engine: new Engine({ kb, store, idleMs: idleMs() }), close: () => db.close() };
}
