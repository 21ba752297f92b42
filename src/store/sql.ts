// The one query layer under the store: Kysely, over better-sqlite3 for the file beside the bot
// (the default) and over pg for a PostgreSQL server several machines share. Queries are written
// once, as Kysely's sql templates whose placeholders each dialect compiles its own way; the few
// phrases the two dialects say differently are the `Dialect`'s. The store's SQL is read as SQL
// (stats are GROUP BYs over covering indexes, counters are upserts): the query builder would only
// spell the same statements in method calls.
import Database from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type DatabaseConnection,
  type Dialect as KyselyDialect,
  type Driver,
  type QueryResult,
  type RawBuilder,
  type Transaction,
} from 'kysely';
import type { Pool } from 'pg';
import { statSync } from 'node:fs';
import { openDb } from './db.ts';
import { walDeleted } from './errors.ts';

export type Executor = Kysely<any> | Transaction<any>;

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** SQLite's planner hint for the covering indexes stats rely on; PostgreSQL's planner is left to choose. */
  indexedBy(index: string): RawBuilder<unknown>;
  /** A text field of a JSON document kept in a TEXT column. */
  jsonText(column: string, path: string[]): RawBuilder<string | null>;
  /**
   * Appended to a SELECT of a case's row at the start of a transaction that decides from it:
   * PostgreSQL locks the row until the end of the transaction; SQLite's transactions hold the
   * file's write lock from their start (BEGIN IMMEDIATE), which serializes them already.
   */
  readonly forUpdate: RawBuilder<unknown>;
  isUniqueViolation(e: unknown): boolean;
}

export interface Sql {
  readonly dialect: Dialect;
  readonly db: Kysely<any>;
  /** What messages name: the file, or the server (never its password). */
  readonly name: string;
  /** The SQLite file, rewritten after deletions (see CaseStore.wipe); undefined on PostgreSQL. */
  readonly file?: string;
  /** One transaction; PostgreSQL's are tried again when the server aborts one for a deadlock or a serialization failure. */
  transaction<T>(fn: (tx: Transaction<any>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function all<T>(q: Executor, query: RawBuilder<T>): Promise<T[]> {
  return (await query.execute(q)).rows;
}

export async function first<T>(q: Executor, query: RawBuilder<T>): Promise<T | undefined> {
  return (await query.execute(q)).rows[0];
}

/** The first column of the first row. */
export async function value<T>(q: Executor, query: RawBuilder<unknown>): Promise<T | undefined> {
  const row = (await query.execute(q)).rows[0] as Record<string, unknown> | undefined;
  return row === undefined ? undefined : (Object.values(row)[0] as T);
}

/** Runs a statement; returns how many rows it changed. */
export async function run(q: Executor, query: RawBuilder<unknown>): Promise<number> {
  return Number((await query.execute(q)).numAffectedRows ?? 0n);
}

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  indexedBy: (index) => sql.raw(` INDEXED BY ${index}`),
  jsonText: (column, path) => sql.raw(`json_extract(${column}, '$.${path.join('.')}')`),
  forUpdate: sql.raw(''),
  isUniqueViolation: (e) => (e as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE',
};

export const postgresDialect: Dialect = {
  name: 'postgres',
  indexedBy: () => sql.raw(''),
  jsonText: (column, path) => sql.raw(`(${column}::jsonb) #>> '{${path.join(',')}}'`),
  forUpdate: sql.raw(' FOR UPDATE'),
  isUniqueViolation: (e) => (e as { code?: string } | null)?.code === '23505',
};

/**
 * How long a statement waits for another process's lock before the store gives up. Waiting costs
 * the event loop nothing (see the driver), so it can outlast another process's long transaction.
 */
const LOCK_WAIT_MS = 60_000;

const isBusy = (e: unknown) => /^SQLITE_(BUSY|LOCKED)/.test((e as { code?: string } | null)?.code ?? '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Turns at a file for this process's connections to it: a transaction keeps its connection across
 * its awaits, and a statement of another caller between them would join that transaction. One
 * query or transaction at a time per file in a process, whatever the connection; waits for another
 * process's lock happen in executeQuery, between timers.
 */
const turns = new Map<string, { tail: Promise<void> }>();

/**
 * better-sqlite3 behind Kysely: one query or transaction at a time (a transaction keeps its turn
 * across its awaits), its statements prepared once (a case is read several times per message;
 * preparing each time cost the bots' event loop), and transactions begun IMMEDIATE: other
 * processes write the same file, and a transaction that reads before it writes must hold the
 * write lock from its start, or SQLite refuses its upgrade at once with SQLITE_BUSY.
 */
class SqliteFileDriver implements Driver {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly turn: { tail: Promise<void> };
  private release = () => {};
  private readonly connection: DatabaseConnection;
  /** The write-ahead log this connection writes into, by inode, once it has written. */
  private walInode?: number;

  constructor(private readonly handle: { file: Database.Database }) {
    const { file } = handle;
    const own = { tail: Promise.resolve() };
    if (file.memory) this.turn = own;
    else this.turn = turns.get(file.name) ?? turns.set(file.name, own).get(file.name)!;
    this.useFile(file);
    this.connection = {
      executeQuery: async <R>(q: CompiledQuery): Promise<QueryResult<R>> => {
        // Only a statement that holds nothing may wait: outside a transaction, or the BEGIN that starts one.
        if (this.handle.file.inTransaction) return this.execute<R>(q);
        this.checkLog();
        const deadline = Date.now() + LOCK_WAIT_MS;
        for (let attempt = 0; ; attempt++) {
          try {
            return this.execute<R>(q);
          } catch (e) {
            if (!isBusy(e) || Date.now() > deadline) throw e;
            await sleep(Math.min(50, 1 + attempt * 2) * (0.5 + Math.random()));
          }
        }
      },
      streamQuery: () => {
        throw new Error('the store does not stream');
      },
    };
  }

  private useFile(file: Database.Database): void {
    this.handle.file = file;
    this.statements.clear();
    this.walInode = undefined;
    // SQLite's own busy handler sleeps on this thread: the event loop would stop for as long as
    // another process holds the lock (a bot missed Discord's 3 s for every interaction meanwhile).
    // So it answers "busy" at once, and the wait happens in executeQuery, between timers.
    file.pragma('busy_timeout = 0');
  }

  private execute<R>(q: CompiledQuery): QueryResult<R> {
    let s = this.statements.get(q.sql);
    if (!s) this.statements.set(q.sql, (s = this.handle.file.prepare(q.sql)));
    if (s.reader) return { rows: s.all(...(q.parameters as unknown[])) as R[] };
    const { changes } = s.run(...(q.parameters as unknown[]));
    this.walInode ??= this.logInode();
    return { rows: [], numAffectedRows: BigInt(changes) };
  }

  private logInode(): number | undefined {
    const { file } = this.handle;
    return file.memory || file.readonly ? undefined : statSync(`${file.name}-wal`, { throwIfNoEntry: false })?.ino;
  }

  /**
   * Someone deleted the write-ahead log of the open database (to "clean up"): this connection
   * would go on writing into a file nobody else sees, lost at the next crash, while other
   * processes start a new one beside the same index. What it wrote is moved into the database
   * file now (the connection still holds the deleted log), the file is opened again with a log
   * of its own, and the change asked for is refused in a sentence saying so.
   */
  private checkLog(): void {
    if (this.walInode === undefined || this.logInode() === this.walInode) return;
    const { file } = this.handle;
    file.pragma('wal_checkpoint(TRUNCATE)');
    file.close();
    this.useFile(openDb(file.name));
    throw walDeleted(file.name);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const before = this.turn.tail;
    let release!: () => void;
    this.turn.tail = new Promise<void>((r) => (release = r));
    await before;
    this.release = release;
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    this.release();
  }

  async beginTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('BEGIN IMMEDIATE'));
  }

  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    // SQLite rolls back by itself on some errors (a full disk, an I/O error): the error is what to report, not the rollback's.
    if (this.handle.file.inTransaction) await c.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async destroy(): Promise<void> {
    if (this.handle.file.open) this.handle.file.close();
  }
}

/** An open better-sqlite3 database (see db.ts) as the store's query layer. */
export function sqliteSql(file: Database.Database): Sql {
  // The connection the driver uses, which it replaces if the database's log was deleted under it.
  const handle = { file };
  const dialect: KyselyDialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new SqliteFileDriver(handle),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  };
  const db = new Kysely<any>({ dialect });
  return {
    dialect: sqliteDialect,
    db,
    name: file.name,
    ...(file.memory ? {} : { file: file.name }),
    transaction: (fn) => db.transaction().execute(fn),
    // Kysely starts a driver at its first query only, and destroys only a started one: the file is closed either way.
    close: async () => {
      await db.destroy();
      if (handle.file.open) handle.file.close();
    },
  };
}

/** Errors PostgreSQL asks the client to retry the transaction for. */
const RETRY = new Set(['40P01', '40001']);

/** A pg pool (see postgres.ts) as the store's query layer. */
export function postgresSql(pool: Pool, name: string): Sql {
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  return {
    dialect: postgresDialect,
    db,
    name,
    transaction: async (fn) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().execute(fn);
        } catch (e) {
          if (attempt >= 5 || !RETRY.has((e as { code?: string }).code ?? '')) throw e;
        }
      }
    },
    close: () => db.destroy(),
  };
}
