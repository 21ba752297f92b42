// Opens the SQLite file and brings its schema up to date. Migrations are numbered SQL files in
// migrations/, applied in order, each inside its own transaction and recorded in schema_migrations,
// so a database left at any earlier version upgrades cleanly. Several processes may open one file
// at the same moment (chats, stats, shards starting together): each migration is chosen and applied
// under the write lock, so no two of them apply the same one.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missing, newerSchema, oldAndReadOnly, storeProblem, unopenable } from './errors.ts';

export type Db = Database.Database;

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');

/** How long a statement waits for another process's write lock before giving up. */
const BUSY_TIMEOUT_MS = 5000;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .map((name) => /^(\d{3})_[\w-]+\.sql$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ version: Number(m[1]), name: m[0], sql: readFileSync(join(dir, m[0]), 'utf8') }))
    .sort((a, b) => a.version - b.version);
}

/** The migrations a database lacks; a database a later ComfyOOM has written is refused, not misread. */
function pending(db: Db, migrations: Migration[], upTo: number): Migration[] {
  const tracked = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
  const applied = tracked ? (db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]) : [];
  const newest = Math.max(0, ...applied);
  const known = Math.max(0, ...migrations.map((m) => m.version));
  if (newest > known) throw newerSchema(db.name, newest, known);
  return migrations.filter((m) => !applied.includes(m.version) && m.version <= upTo);
}

/** Applies every migration newer than the database; returns the versions applied. */
export function migrate(db: Db, migrations = readMigrations(), upTo = Infinity): number[] {
  // A look without the write lock first, so opening an up-to-date database never waits for writers.
  if (!pending(db, migrations, upTo).length) return [];
  const applyNext = db.transaction((): number | undefined => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    const m = pending(db, migrations, upTo)[0];
    if (!m) return undefined;
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    return m.version;
  });
  const applied: number[] = [];
  for (let v = applyNext.immediate(); v !== undefined; v = applyNext.immediate()) applied.push(v);
  return applied;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Switching a new file to WAL needs every other connection off it, and SQLite answers "locked"
 * at once instead of waiting for the busy timeout (a deadlock guard): so it is tried again, until
 * that timeout, while other processes open the same new file.
 */
function untilUnlocked<T>(fn: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return fn();
    } catch (e) {
      if (!(e as { code?: string }).code?.startsWith('SQLITE_BUSY') || Date.now() > deadline) throw e;
      Atomics.wait(pause, 0, 0, 5 + Math.random() * 20);
    }
  }
}

export interface OpenOptions {
  /**
   * For commands that only read (stats): the file is opened read-only, so it may be a read-only
   * file, and is never migrated while open (an older one is upgraded first when it may be written).
   */
  readonly?: boolean;
  /** Stops at this migration, to build a database of an earlier version. */
  migrateUpTo?: number;
}

/** Opens the database; every problem with the file comes out as a StoreError naming it and what to do. */
export function openDb(path: string, opts: OpenOptions = {}): Db {
  try {
    return opts.readonly ? openForReading(path) : openForWriting(path, opts.migrateUpTo);
  } catch (e) {
    throw storeProblem(e, path) ?? e;
  }
}

function openForWriting(path: string, upTo = Infinity): Db {
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  } catch (e) {
    throw unopenable(path, e);
  }
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma('foreign_keys = ON');
    // Deleted cases (forget, retention) are overwritten with zeros, not left readable in free pages.
    db.pragma('secure_delete = ON');
    untilUnlocked(() => db.pragma('journal_mode = WAL'));
    db.pragma('synchronous = NORMAL');
    migrate(db, readMigrations(), upTo);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

function openForReading(path: string): Db {
  if (!existsSync(path)) throw missing(path);
  const open = () => new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  const db = open();
  try {
    if (!pending(db, readMigrations(), Infinity).length) return db;
  } catch (e) {
    db.close();
    throw e;
  }
  db.close();
  // An older database is upgraded before it is read, which needs write access this once.
  try {
    openForWriting(path).close();
  } catch (e) {
    throw (e as { code?: string }).code?.startsWith('SQLITE_READONLY') ? oldAndReadOnly(path) : e;
  }
  return open();
}
