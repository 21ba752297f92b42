// Which store a process uses: a PostgreSQL server when COMFYOOM_DATABASE_URL names one (several
// machines on one database), otherwise the SQLite file beside the bot (the default).
import { openDb, type OpenOptions } from './db.ts';
import { sqliteSql, type Sql } from './sql.ts';

export interface StoreLocation {
  /** The SQLite file (--db, COMFYOOM_DB). */
  db: string;
  /** COMFYOOM_DATABASE_URL: postgres://user:password@host:port/database */
  databaseUrl?: string | undefined;
}

export async function openStore(where: StoreLocation, opts: OpenOptions = {}): Promise<Sql> {
  // pg is loaded only for a server: the file's users (the terminal, a one-off stats) start without it.
  if (where.databaseUrl) return (await import('./postgres.ts')).openPostgres(where.databaseUrl, opts.migrateUpTo !== undefined ? { migrateUpTo: opts.migrateUpTo } : {});
  return sqliteSql(openDb(where.db, opts));
}
