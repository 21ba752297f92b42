// A PostgreSQL server as the store, for bots on several machines (COMFYOOM_DATABASE_URL). Its
// migrations are migrations/postgres/, the same numbered steps as SQLite's expressed in
// PostgreSQL's SQL; they are applied at open in one transaction under an advisory lock, so
// machines starting together apply each once.
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { MIGRATIONS_DIR, readMigrations, type Migration } from './db.ts';
import { StoreError, storeProblem } from './errors.ts';
import { postgresSql, type Sql } from './sql.ts';

export const POSTGRES_MIGRATIONS_DIR = join(MIGRATIONS_DIR, 'postgres');

/** Any number, the same in every process: the key of the lock migrations are applied under. */
const MIGRATION_LOCK = 0x636f6d66;

/** A server that takes longer than this to accept a connection is reported, not waited for forever. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Connections per process: a bot's transactions are short. */
const POOL_SIZE = 10;

/** COUNT, SUM and BIGINT times come back as strings from pg by default; every figure here fits a double. */
const asNumber = new Set([20, 1700]);
const types = { getTypeParser: ((oid: number, format?: string) => (asNumber.has(oid) ? Number : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser };

export const isPostgresUrl = (s: string | undefined): s is string => !!s && /^postgres(ql)?:\/\//i.test(s);

/** The server and database a URL names, without its password, for messages. */
export function serverName(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return 'the PostgreSQL server of COMFYOOM_DATABASE_URL';
  }
}

export interface PostgresOptions {
  /** Stops at this migration, to build a database of an earlier version. */
  migrateUpTo?: number;
}

export async function openPostgres(url: string, o: PostgresOptions = {}): Promise<Sql> {
  const name = serverName(url);
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, types, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle connection the server dropped is replaced at the next query; unhandled, its error would end the process.
  pool.on('error', () => {});
  // So would that of a connection checked out between two statements of a transaction when the
  // server goes away: its next statement fails instead, and is told as the store's failure.
  pool.on('connect', (client) => client.on('error', () => {}));
  const store = postgresSql(pool, name);
  try {
    await migratePostgres(store, readMigrations(POSTGRES_MIGRATIONS_DIR), o.migrateUpTo);
    return store;
  } catch (e) {
    await store.close();
    throw storeProblem(e, name) ?? e;
  }
}

/** Applies every migration newer than the database; returns the versions applied. */
export async function migratePostgres(store: Sql, migrations: Migration[], upTo = Infinity): Promise<number[]> {
  return store.transaction(async (tx) => {
    await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(tx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`.execute(tx);
    const applied = (await sql<{ version: number }>`SELECT version FROM schema_migrations`.execute(tx)).rows.map((r) => r.version);
    const newest = Math.max(0, ...applied);
    const known = Math.max(0, ...migrations.map((m) => m.version));
    if (newest > known) {
      throw new StoreError(store.name, `${store.name} was made by a newer ComfyOOM (schema version ${newest}; this one knows up to ${known}): update ComfyOOM to use it`);
    }
    const done: number[] = [];
    for (const m of migrations.filter((m) => !applied.includes(m.version) && m.version <= upTo)) {
      await sql.raw(m.sql).execute(tx);
      await sql`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, ${m.name}, ${Date.now()})`.execute(tx);
      done.push(m.version);
    }
    return done;
  });
}
