// The store and engine tests run on both stores: an SQLite file in a temporary folder, and a new
// schema on the real PostgreSQL server the global setup started (postgres-server.ts). Where that
// server could not start, the PostgreSQL half is skipped, its title saying why.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject } from 'vitest';
import type { StoreLocation } from '../../src/store/open.ts';

export type StoreKind = 'sqlite' | 'postgres';

export interface Stores {
  kind: StoreKind;
  /** Where a new, empty store is (open it with openStore, as the app does). */
  fresh(): Promise<StoreLocation>;
}

const url = inject('postgresUrl');
const unavailable = inject('postgresUnavailable');

async function freshSchema(): Promise<StoreLocation> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const at = new URL(url!);
  at.searchParams.set('options', `-c search_path=${schema}`);
  return { db: '', databaseUrl: at.toString() };
}

const freshFile = async (): Promise<StoreLocation> => ({ db: join(mkdtempSync(join(tmpdir(), 'store-')), 'cases.db') });

export const STORES: Stores[] = [
  { kind: 'sqlite', fresh: freshFile },
  { kind: 'postgres', fresh: freshSchema },
];

/** One describe per store; PostgreSQL's is skipped, saying why, where its server could not start. */
export function describeStores(title: string, body: (s: Stores) => void): void {
  for (const s of STORES) {
    const skip = s.kind === 'postgres' && !url;
    describe.skipIf(skip)(skip ? `${title} (postgres: skipped, ${unavailable ?? 'no server'})` : `${title} (${s.kind})`, () => body(s));
  }
}
