// Opens the SQLite file and brings its schema up to date. Migrations are numbered SQL files in
// migrations/, applied in order, each inside its own transaction and recorded in schema_migrations,
// so a database left at any earlier version upgrades cleanly.
import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Db = Database.Database;

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');

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

/** Applies every migration newer than the database; returns the versions applied. */
export function migrate(db: Db, migrations = readMigrations(), upTo = Infinity): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const done = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.version) || m.version > upTo) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    })();
    applied.push(m.version);
  }
  return applied;
}

export function openDb(path: string, opts: { migrateUpTo?: number } = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, readMigrations(), opts.migrateUpTo);
  return db;
}
