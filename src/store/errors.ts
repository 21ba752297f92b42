// What went wrong with the database file, in one sentence that names the file and says what to
// do. Every SQLite or file-system error the store meets is translated here, so the CLI and the
// bots print the same sentence for the same problem instead of a stack trace.
import { statSync } from 'node:fs';
import { join } from 'node:path';

export class StoreError extends Error {
  constructor(
    readonly path: string,
    message: string,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = 'StoreError';
  }
}

const WHERE = 'choose another file with --db or COMFYOOM_DB';

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The sentence for a database problem, or undefined when `e` is not one (a bug stays a stack
 * trace). `path` is the SQLite file, or the PostgreSQL server's name (see postgres.ts serverName).
 */
export function storeProblem(e: unknown, path: string): StoreError | undefined {
  if (e instanceof StoreError) return e;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return serverProblem(e, path);
  const say = (sentence: string) => new StoreError(path, sentence, e);
  // A folder fails as "cannot open" or as an I/O error, depending on how it is opened.
  if (code.startsWith('SQLITE_CANTOPEN') || isFolder(path)) return say(cannotOpen(path));
  if (code === 'SQLITE_NOTADB') return say(`${path} is not a ComfyOOM database (it is not an SQLite file at all): ${WHERE}, or move it away to start a new database there`);
  if (code.startsWith('SQLITE_CORRUPT')) return say(`the database ${path} is damaged (corrupted pages): restore it from a backup, or move it away to start a new one (sqlite3's .recover command may save its cases)`);
  if (code === 'SQLITE_FULL') return say(`the disk holding the database ${path} is full: free some space, then run again (everything stored before this was kept)`);
  if (code === 'SQLITE_READONLY_DIRECTORY' || code === 'SQLITE_READONLY_CANTINIT') {
    return say(`the folder of the database ${path} is read-only, and SQLite must create a small index file next to it (${path}-shm) even to read it: make the folder writable, or copy the database into a writable folder`);
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM') || code.startsWith('SQLITE_AUTH')) {
    return say(`the database ${path} is read-only: make the file and its folder writable for this user, or ${WHERE} (stats works on a read-only database)`);
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return say(`the database ${path} stayed locked by another ComfyOOM process for too long: run again in a moment`);
  if (code.startsWith('SQLITE_IOERR') && logDeletedUnder(path)) return walDeleted(path, e);
  if (code.startsWith('SQLITE_IOERR')) {
    return say(`could not read or write the database ${path} (${code}): the disk may be full or failing; free some space or check the disk, then run again`);
  }
  return undefined;
}

/**
 * A database whose index (-shm) says its write-ahead log holds pages, while the log is gone or
 * empty: someone deleted the log while a process had the database open.
 */
function logDeletedUnder(path: string): boolean {
  const size = (f: string) => statSync(f, { throwIfNoEntry: false })?.size ?? 0;
  return size(`${path}-shm`) > 0 && size(`${path}-wal`) === 0;
}

/** Said by a process that finds the log deleted, whether under its own connection (sql.ts) or another's. */
export const walDeleted = (path: string, cause?: unknown) =>
  new StoreError(
    path,
    `the write-ahead log ${path}-wal was deleted while ComfyOOM had the database open: SQLite cannot go on safely that way. What the running process wrote is being saved into ${path}; restart every ComfyOOM process using it, and never delete the -wal or -shm files of an open database (they go when the last process closes it). The last change was not saved`,
    cause,
  );

/** The database's folder could not be made, or the file opened. */
export const unopenable = (path: string, cause: unknown) => new StoreError(path, cannotOpen(path), cause);

function cannotOpen(path: string): string {
  if (isFolder(path)) return `${path} is a folder, not a database file: give a file's path with --db or COMFYOOM_DB (for example ${join(path, 'comfyoom.db')})`;
  return `cannot open the database ${path}: its folder must exist or be creatable and be writable by this user; ${WHERE}`;
}

/** A database written by a later ComfyOOM: its tables may mean something this code does not know. */
export const newerSchema = (path: string, version: number, known: number) =>
  new StoreError(path, `${path} was made by a newer ComfyOOM (schema version ${version}; this one knows up to ${known}): update ComfyOOM to use it`);

export const missing = (path: string) => new StoreError(path, `there is no case database at ${path} yet (the bot and comfyoom chat create it): check --db or COMFYOOM_DB`);

/** An older database that must be upgraded before it can be read, but may not be written. */
export const oldAndReadOnly = (path: string) =>
  new StoreError(path, `${path} was made by an older ComfyOOM and must be upgraded before it can be read, but it is read-only: make it writable and run again`);

/** Network errors on the way to a server. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * A PostgreSQL server's problem, when opening or later (the server stopped, restarted, or was
 * never there): errors from pg carry a SQLSTATE code, a socket's errno, or only a message.
 */
function serverProblem(e: unknown, name: string): StoreError | undefined {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const message = e instanceof Error ? e.message : '';
  const say = (sentence: string) => new StoreError(name, sentence, e);
  if (code === 'ERR_INVALID_URL') {
    return say('COMFYOOM_DATABASE_URL is not a valid URL: write it as postgres://user:password@host:5432/database, an IPv6 host in brackets ([::1]), special characters of the password percent-encoded');
  }
  if (UNREACHABLE.has(code)) return say(`cannot reach the PostgreSQL server ${name} (${code}): check the host and port in COMFYOOM_DATABASE_URL and that the server runs`);
  if (code === '28P01' || code === '28000') return say(`the PostgreSQL server ${name} refused the user or password of COMFYOOM_DATABASE_URL`);
  if (code === '3D000') return say(`the PostgreSQL server ${name} has no such database: create it (createdb) or fix COMFYOOM_DATABASE_URL`);
  if (/does not support SSL/i.test(message)) {
    return say(`the PostgreSQL server ${name} does not accept TLS, but COMFYOOM_DATABASE_URL asks for it (sslmode): remove sslmode from the URL, or turn ssl on in the server's postgresql.conf`);
  }
  if (/timeout exceeded when trying to connect|connection timeout/i.test(message)) {
    return say(`the PostgreSQL server ${name} did not answer in time: check the host and port in COMFYOOM_DATABASE_URL, and that no firewall drops the connection`);
  }
  if (/^(57P|08)/.test(code) || code === 'ECONNRESET' || code === 'EPIPE' || /Connection terminated|not queryable|terminating connection/i.test(message)) {
    return say(`the connection to the PostgreSQL server ${name} ended before it answered: the server stopped or restarted, the network dropped, or what listens there is not PostgreSQL`);
  }
  return undefined;
}
