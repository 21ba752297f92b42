// Cases and their event log, in SQLite or PostgreSQL (see sql.ts). Every write of a transition (its
// records and the new state snapshot) is one transaction, so a crash never leaves a case
// half-updated. Other processes write the same database (chats, bots, forget, other machines): a
// transaction that decides from what it read holds the case against them from its start (SQLite:
// the file's write lock, BEGIN IMMEDIATE; PostgreSQL: the case's row lock, Dialect.forUpdate).
import { sql, type RawBuilder } from 'kysely';
import type { CaseState, Record } from '../records/case.ts';
import { archiveCases, DAY_MS, dayOf } from './archive.ts';
import { caseOutcomes, outcomesOf } from '../records/outcomes.ts';
import { addOutcomes, netOutcomes } from './outcomes.ts';
import { openDb } from './db.ts';
import { all, first, run, sqliteSql, value, type Executor, type Sql } from './sql.ts';

/** Cases deleted per transaction by retention, so other writers wait for the lock a moment, not minutes. */
const EXPIRE_BATCH = 500;

export interface NewCase {
  id: string;
  platform: string;
  server?: string;
  channel?: string;
  userId: string;
  createdAt: number;
  category: string;
  entry: string;
  kbVersion: string;
  facts: unknown;
  paste: string;
  fingerprint: string;
  recognized: boolean;
  /** What the case was opened from (a message, a command invocation): one case per source. */
  source?: string;
  /** The conversation it runs in, when known before anything is posted: one open case per thread. */
  thread?: string;
}

/** Why a case was not created: that source, or that thread, already has one. */
export type Created = { created: true } | { existing: string; by: 'source' | 'thread' };

/** What a case is known by when a draft (a log posted in another's case thread) is kept. */
export interface NewDraft {
  id: string;
  platform: string;
  server?: string;
  userId: string;
  createdAt: number;
  paste: string;
}

/** The case's diagnosis redone from its facts plus what the user answered. */
export interface Rediagnosis {
  category: string;
  entry: string;
  facts: unknown;
}

export interface CaseRow {
  id: string;
  platform: string;
  server: string | null;
  channel: string | null;
  user_id: string;
  created_at: number;
  updated_at: number;
  category: string;
  entry: string;
  kb_version: string;
  facts: string;
  paste: string;
  status: string;
  resolving_step: string | null;
  resolution: string | null;
  fingerprint: string;
  thread: string | null;
  source: string | null;
  buttons: string | null;
  /** The entry the user said was not their problem (migration 010). */
  misdiagnosed: string | null;
  state: string;
}

/** A stored case: its row, its state, and the sequence number of its last event. */
export interface Stored {
  row: CaseRow;
  state: CaseState;
  seq: number;
}

export class CaseStore {
  readonly db: Sql['db'];

  constructor(readonly sql: Sql) {
    this.db = sql.db;
  }

  /**
   * Creates a case with its first records, atomically, unless its source already opened one or its
   * thread holds an open one: the unique keys of migration 007 decide, inside the transaction, so
   * two processes or machines, or two deliveries of one message, can never both create.
   */
  async create(c: NewCase, records: Record[], state: CaseState): Promise<Created> {
    const created = await this.sql.transaction(async (tx) => {
      // ON CONFLICT DO NOTHING: a case that loses to another waits for the other's transaction, then inserts nothing.
      const inserted = await run(
        tx,
        sql`INSERT INTO cases (id, platform, server, channel, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, fingerprint, recognized, status, state, source, thread)
          VALUES (${c.id}, ${c.platform}, ${c.server ?? null}, ${c.channel ?? null}, ${c.userId}, ${c.createdAt}, ${c.createdAt}, ${c.category}, ${c.entry}, ${c.kbVersion},
            ${JSON.stringify(c.facts)}, ${c.paste}, ${c.fingerprint}, ${c.recognized ? 1 : 0}, 'open', '{}', ${c.source ?? null}, ${c.thread ?? null})
          ON CONFLICT DO NOTHING`,
      );
      if (!inserted) return false;
      await this.write(tx, c.id, records, state);
      return true;
    });
    if (created) return { created: true };
    const bySource = c.source === undefined ? undefined : await this.fromSource(c.platform, c.source);
    if (bySource) return { existing: bySource, by: 'source' };
    const inThread = c.thread === undefined ? undefined : await this.caseInThread(c.platform, c.thread);
    if (inThread) return { existing: inThread, by: 'thread' };
    // Neither key held it back: its id was taken (ids are random), or the one that won is gone again (discarded, forgotten).
    throw new Error(`case ${c.id} could not be created: its id is taken or another case held its source or thread a moment`);
  }

  /**
   * Appends a transition's records and the state they lead to, if the case's last event is still
   * `seq` (the one the transition was decided from): another process may have moved the case on
   * meanwhile (two sweeps, two clicks in two shards), and then nothing is written and false comes
   * back, for the caller to read the case again and decide anew. Without `seq` (bulk loading),
   * no check. An answer to the question before the first step completes the case's first
   * diagnosis, so its facts and entry come along.
   */
  async append(caseId: string, records: Record[], state: CaseState, o: { seq?: number; diagnosis?: Rediagnosis } = {}): Promise<boolean> {
    if (!records.length) return true;
    return this.sql.transaction(async (tx) => {
      const held = await first(tx, sql`SELECT id FROM cases WHERE id = ${caseId}${this.sql.dialect.forUpdate}`);
      if (!held) return false;
      if (o.seq !== undefined && (await lastSeq(tx, caseId)) !== o.seq) return false;
      await this.write(tx, caseId, records, state);
      if (o.diagnosis) {
        await sql`UPDATE cases SET category = ${o.diagnosis.category}, entry = ${o.diagnosis.entry}, facts = ${JSON.stringify(o.diagnosis.facts)} WHERE id = ${caseId}`.execute(tx);
      }
      return true;
    });
  }

  private async write(tx: Executor, caseId: string, records: Record[], state: CaseState): Promise<void> {
    // A doubt or a relabel corrects what the case's earlier records counted: the counters take the
    // difference between the whole case counted before and after (src/records/outcomes.ts).
    const corrects = state.relabelled !== undefined || records.some((r) => r.type === 'misdiagnosed' || r.type === 'relabelled');
    const before = corrects ? await recordsOf(tx, caseId) : [];
    let seq = await lastSeq(tx, caseId);
    for (const r of records) {
      const step = 'step' in r ? r.step : 'credited' in r ? r.credited : null;
      await sql`INSERT INTO events (case_id, seq, at, type, step, data) VALUES (${caseId}, ${++seq}, ${r.at}, ${r.type}, ${step}, ${JSON.stringify(r)})`.execute(tx);
      // The aggregates stats read (migrations 004, 005), kept in step with the events.
      if (r.type === 'offered') await sql`INSERT INTO case_steps (case_id, step, created_at) SELECT id, ${r.step}, created_at FROM cases WHERE id = ${caseId} ON CONFLICT DO NOTHING`.execute(tx);
      else if (r.type === 'answered' && r.answer !== 'skipped' && r.reason !== 'could_not_apply') await sql`UPDATE case_steps SET tried = 1 WHERE case_id = ${caseId} AND step = ${r.step}`.execute(tx);
      else if (r.type === 'plan_switched') await sql`UPDATE case_steps SET moved_on = 1 WHERE case_id = ${caseId} AND step = ${r.credited}`.execute(tx);
      else if (r.type === 'resolved') await sql`UPDATE cases SET resolved_at = ${r.at} WHERE id = ${caseId}`.execute(tx);
      else if (r.type === 'asked') await sql`INSERT INTO case_questions (case_id, question, created_at) SELECT id, ${r.question}, created_at FROM cases WHERE id = ${caseId} ON CONFLICT DO NOTHING`.execute(tx);
      else if (r.type === 'clarified') await sql`UPDATE case_questions SET choice = ${r.choice}, typed = ${r.typed ? 1 : 0} WHERE case_id = ${caseId} AND question = ${r.question}`.execute(tx);
      else if (r.type === 'misdiagnosed') await sql`UPDATE cases SET misdiagnosed = COALESCE(misdiagnosed, ${r.entry}) WHERE id = ${caseId}`.execute(tx);
    }
    if (corrects) for (const [outcomes, by] of netOutcomes(caseOutcomes(before), caseOutcomes([...before, ...records]))) await addOutcomes(tx, caseId, outcomes, by);
    else await addOutcomes(tx, caseId, outcomesOf(records, state));
    await sql`UPDATE cases SET updated_at = ${records.at(-1)!.at}, status = ${state.status}, resolving_step = ${state.resolvingStep ?? null}, resolution = ${state.resolution ?? null},
      state = ${JSON.stringify(state)}, steps_offered = steps_offered + ${records.filter((r) => r.type === 'offered').length} WHERE id = ${caseId}`.execute(tx);
  }

  async get(caseId: string): Promise<Stored | undefined> {
    const found = await first<CaseRow & { last_seq: number }>(this.db, sql`SELECT *, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE case_id = cases.id) AS last_seq FROM cases WHERE id = ${caseId}`);
    if (!found) return undefined;
    const { last_seq: seq, ...row } = found;
    return { row, state: JSON.parse(row.state) as CaseState, seq };
  }

  /** The case a source opened, if any. */
  fromSource(platform: string, source: string): Promise<string | undefined> {
    return value<string>(this.db, sql`SELECT id FROM cases WHERE platform = ${platform} AND source = ${source}`);
  }

  records(caseId: string): Promise<Record[]> {
    return recordsOf(this.db, caseId);
  }

  /** The owner's most recently active open case on a platform (and channel, when given). */
  lastOpen(platform: string, userId: string, channel?: string): Promise<string | undefined> {
    const inChannel = channel ? sql` AND channel = ${channel}` : sql``;
    return value<string>(this.db, sql`SELECT id FROM cases WHERE platform = ${platform} AND user_id = ${userId} AND status = 'open'${inChannel} ORDER BY updated_at DESC, rowid DESC LIMIT 1`);
  }

  /** Open cases on `platforms` with no activity since `before`. */
  async idleOpen(before: number, platforms: readonly string[]): Promise<string[]> {
    if (!platforms.length) return [];
    return (await all<{ id: string }>(this.db, sql`SELECT id FROM cases WHERE status = 'open' AND updated_at < ${before} AND platform IN (${sql.join(platforms)})`)).map((r) => r.id);
  }

  /**
   * Remembers the chat thread a case runs in, unless another open case runs there already (then
   * false, and the case keeps running where it was). One statement, which the unique key of
   * migration 007 stands behind when another process takes the thread at the same moment.
   */
  async setThread(caseId: string, thread: string): Promise<boolean> {
    try {
      const changed = await run(
        this.db,
        sql`UPDATE cases SET thread = ${thread} WHERE id = ${caseId}
          AND NOT EXISTS (SELECT 1 FROM cases o WHERE o.platform = cases.platform AND o.thread = ${thread} AND o.status = 'open' AND o.id <> cases.id)`,
      );
      return changed === 1;
    } catch (e) {
      if (this.sql.dialect.isUniqueViolation(e)) return false;
      throw e;
    }
  }

  /** The open case that runs in a chat thread, if any (there is at most one). */
  caseInThread(platform: string, thread: string): Promise<string | undefined> {
    return value<string>(this.db, sql`SELECT id FROM cases WHERE platform = ${platform} AND thread = ${thread} AND status = 'open'`);
  }

  /** Records which message carries the case's live buttons; returns the one that did before. */
  swapButtons(caseId: string, ref: string | null): Promise<string | undefined> {
    return this.sql.transaction(async (tx) => {
      const before = await value<string | null>(tx, sql`SELECT buttons FROM cases WHERE id = ${caseId}${this.sql.dialect.forUpdate}`);
      await sql`UPDATE cases SET buttons = ${ref} WHERE id = ${caseId}`.execute(tx);
      return before ?? undefined;
    });
  }

  /** Forgets which message carries the case's live buttons, if it is still `ref` (they went another way). */
  async dropButtons(caseId: string, ref: string): Promise<void> {
    await sql`UPDATE cases SET buttons = NULL WHERE id = ${caseId} AND buttons = ${ref}`.execute(this.db);
  }

  /**
   * Deletes a case that never reached anyone (its first post failed where the bot cannot post):
   * not an outcome, so not archived for stats either.
   */
  async discard(caseId: string): Promise<void> {
    await sql`DELETE FROM cases WHERE id = ${caseId}`.execute(this.db);
  }

  async saveDraft(d: NewDraft): Promise<void> {
    await sql`INSERT INTO drafts (id, platform, server, user_id, created_at, paste) VALUES (${d.id}, ${d.platform}, ${d.server ?? null}, ${d.userId}, ${d.createdAt}, ${d.paste})`.execute(this.db);
  }

  /** A draft's paste, taken (deleted) so that it opens one case at most; only its author's. */
  takeDraft(id: string, platform: string, userId: string): Promise<string | undefined> {
    return value<string>(this.db, sql`DELETE FROM drafts WHERE id = ${id} AND platform = ${platform} AND user_id = ${userId} RETURNING paste`);
  }

  /** True the first time a platform delivery (a Slack event id) is seen, false for a redelivery. */
  async firstDelivery(platform: string, id: string, at: number): Promise<boolean> {
    return (await run(this.db, sql`INSERT INTO deliveries (platform, id, at) VALUES (${platform}, ${id}, ${at}) ON CONFLICT DO NOTHING`)) === 1;
  }

  /** True the first time a place's digest for a week is claimed: two processes or a restart never post it twice. */
  async claimDigest(platform: string, server: string, week: number, at: number): Promise<boolean> {
    return (await run(this.db, sql`INSERT INTO digests (platform, server, week, sent_at) VALUES (${platform}, ${server}, ${week}, ${at}) ON CONFLICT DO NOTHING`)) === 1;
  }

  /** How many cases a user has on a platform (what forget would delete). */
  async countOf(userId: string, platform: string): Promise<number> {
    return (await value<number>(this.db, sql`SELECT COUNT(*) AS n FROM cases WHERE user_id = ${userId} AND platform = ${platform}`)) ?? 0;
  }

  /**
   * Deletes one user's cases and, by cascade, their events, leaving nothing of them in the file
   * (see `wipe`); stats keep counting them, anonymously. Says how many cases went, and whether
   * the file is already scrubbed of them.
   */
  async forgetUser(userId: string, platform?: string): Promise<{ cases: number; scrubbed: boolean }> {
    const cases = await this.deleteUser(userId, platform);
    // Even with nothing deleted: a forget whose wipe was interrupted is finished by running it again.
    return { cases, scrubbed: await this.wipe() };
  }

  /** forgetUser without the wipe, for a caller that rewrites the file elsewhere (off its event loop). */
  deleteUser(userId: string, platform?: string): Promise<number> {
    const where = platform ? sql`user_id = ${userId} AND platform = ${platform}` : sql`user_id = ${userId}`;
    return this.delete(where, sql`DELETE FROM drafts WHERE ${where}`);
  }

  /**
   * Retention: deletes, as forgetUser does, the cases created before the UTC day `days` days ago.
   * Whole days go at once, so the file is rewritten at most once a day however often this runs,
   * and the archive holds complete days. Returns how many cases went.
   */
  async expire(days: number, now = Date.now()): Promise<number> {
    const { cases, wipe } = await this.deleteExpired(days, now);
    if (wipe) await this.wipe();
    return cases;
  }

  /** expire without the wipe, for a caller that rewrites the file elsewhere: how many cases went, and whether anything did. */
  async deleteExpired(days: number, now = Date.now()): Promise<{ cases: number; wipe: boolean }> {
    const before = (dayOf(now) - days) * DAY_MS;
    let n = 0;
    for (;;) {
      // Cases deleted per transaction, so other writers wait for the lock a moment, not minutes.
      const last = await value<number>(this.db, sql`SELECT created_at FROM cases WHERE created_at < ${before} ORDER BY created_at LIMIT 1 OFFSET ${EXPIRE_BATCH - 1}`);
      n += await this.delete(sql`created_at < ${last === undefined ? before : last + 1}`);
      if (last === undefined) break;
    }
    const drafts = await run(this.db, sql`DELETE FROM drafts WHERE created_at < ${before}`);
    return { cases: n, wipe: n > 0 || drafts > 0 };
  }

  /** Housekeeping of what only guards against doubles: drafts nobody took and delivery ids, after `maxAgeMs`. */
  async prune(now: number, maxAgeMs: number): Promise<void> {
    await sql`DELETE FROM drafts WHERE created_at < ${now - maxAgeMs}`.execute(this.db);
    await sql`DELETE FROM deliveries WHERE at < ${now - maxAgeMs}`.execute(this.db);
  }

  /** Deletes the cases `where` selects (and whatever `also` deletes), their counts added to the stats archive first. */
  private delete(where: RawBuilder<unknown>, also?: RawBuilder<unknown>): Promise<number> {
    return this.sql.transaction(async (tx) => {
      await archiveCases(tx, where);
      if (also) await also.execute(tx);
      return run(tx, sql`DELETE FROM cases WHERE ${where}`);
    });
  }

  /** See the function below. */
  wipe(): Promise<boolean> {
    return wipe(this.sql);
  }
}

const lastSeq = async (q: Executor, caseId: string) => (await value<number>(q, sql`SELECT COALESCE(MAX(seq), 0) AS seq FROM events WHERE case_id = ${caseId}`)) ?? 0;

/** The tables that hold what users wrote, who they are, or the ids of their cases. */
const USER_TABLES = ['cases', 'events', 'case_steps', 'case_questions', 'drafts'];

/** Rows moved per transaction: another writer waits for one such batch at most. */
const MOVE_BATCH = 200;

/**
 * Leaves no copy of deleted rows in the database; true when none is left anywhere, false while
 * another connection still reads a snapshot from before the deletion (whose pages the write-ahead
 * log must keep until it ends: run it again then).
 *
 * PostgreSQL: VACUUM marks the dead rows' space free for reuse, without rewriting the tables or
 * blocking writers; their bytes stay on the server's disk until overwritten (VACUUM FULL would
 * rewrite, but locks every table). An SQLite file: see wipeFile; one in memory keeps nothing.
 */
export async function wipe(store: Sql): Promise<boolean> {
  if (store.dialect.name === 'postgres') {
    for (const table of USER_TABLES) await sql`VACUUM ${sql.table(table)}`.execute(store.db);
    return true;
  }
  return store.file ? wipeFile(store.file) : true;
}

/**
 * An SQLite file scrubbed of deleted rows, through a connection of its own, in short transactions.
 * secure_delete (set at open) zeroes deleted rows and the pages that fall empty, but a page SQLite
 * rebuilt while balancing keeps bytes of cells that moved away in its unused middle, and indexes
 * keep keys (case and user ids) that way. So every row of the users' tables moves to a fresh page
 * at the end of its table, a batch per transaction: each old page falls empty and is zeroed (the
 * first rows moved fill the old last page, and move again). Then each index is built
 * anew (REINDEX, one per transaction), its old pages zeroed, and the TRUNCATE checkpoint moves the
 * result into the file and empties the log, which held the old pages; it does not wait for
 * readers. A VACUUM did all this in one transaction, holding the write lock for seconds to
 * minutes on a large file; here another writer waits for one batch or one index at most, the
 * scrub giving way after each.
 */
export async function wipeFile(file: string): Promise<boolean> {
  const own = sqliteSql(openDb(file));
  try {
    // A case's row moving must not take its events with it; moved rows wait in memory, never in a temp file.
    await sql`PRAGMA foreign_keys = OFF`.execute(own.db);
    await sql`PRAGMA temp_store = MEMORY`.execute(own.db);
    for (const table of USER_TABLES) {
      const last = await value<number>(own.db, sql`SELECT MAX(rowid) AS n FROM ${sql.table(table)}`);
      if (last === null || last === undefined) continue;
      // The first rows moved go onto the table's old last page, until it is full: they move once more.
      const filled = await moveRows(own, table, Number.MIN_SAFE_INTEGER, last);
      if (filled !== undefined) await moveRows(own, table, last, filled);
      const indexes = await all<{ name: string }>(own.db, sql`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${table}`);
      for (const { name } of indexes) await givingWay(() => sql`REINDEX ${sql.id(name)}`.execute(own.db));
      // Copied into the file as it goes, without stopping writers: the last checkpoint, which does, has little left.
      await sql`PRAGMA wal_checkpoint(PASSIVE)`.execute(own.db);
    }
    const log = await first<{ busy: number; log: number }>(own.db, sql`PRAGMA wal_checkpoint(TRUNCATE)`);
    return !!log && log.busy === 0 && log.log <= 0;
  } finally {
    await own.close();
  }
}

/**
 * `step`, then a pause as long as it took (5-100 ms): another process waiting for the lock polls
 * at such intervals, and would otherwise find it taken again by the next step each time it looks.
 */
async function givingWay<T>(step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const done = await step();
  await new Promise((r) => setTimeout(r, Math.min(100, Math.max(5, performance.now() - started))));
  return done;
}

/**
 * The rows of `table` with rowids in (from, to], deleted and inserted again at the table's end,
 * MOVE_BATCH at a time. Returns the table's last rowid once two batches have moved: by then more
 * than a page's worth of rows went onto the old last page, filling it.
 */
async function moveRows(own: Sql, table: string, from: number, to: number): Promise<number | undefined> {
  const t = sql.table(table);
  const moving = sql.table(`temp.moving_${table}`);
  await sql`CREATE TEMP TABLE IF NOT EXISTS ${sql.table(`moving_${table}`)} AS SELECT * FROM ${t} WHERE 0`.execute(own.db);
  let filled: number | undefined;
  for (let after = from, batches = 0; after < to; batches++) {
    const start = after;
    after = await givingWay(() => own.transaction(async (tx) => {
      const end = (await value<number>(tx, sql`SELECT MAX(rowid) AS n FROM (SELECT rowid FROM ${t} WHERE rowid > ${start} AND rowid <= ${to} ORDER BY rowid LIMIT ${MOVE_BATCH})`)) ?? to;
      await sql`INSERT INTO ${moving} SELECT * FROM ${t} WHERE rowid > ${start} AND rowid <= ${end}`.execute(tx);
      await sql`DELETE FROM ${t} WHERE rowid > ${start} AND rowid <= ${end}`.execute(tx);
      await sql`INSERT INTO ${t} SELECT * FROM ${moving}`.execute(tx);
      await sql`DELETE FROM ${moving}`.execute(tx);
      return end;
    }));
    if (batches === 1) filled = await value<number>(own.db, sql`SELECT MAX(rowid) AS n FROM ${t}`);
  }
  return filled ?? (await value<number>(own.db, sql`SELECT MAX(rowid) AS n FROM ${t}`));
}

async function recordsOf(db: Executor, caseId: string): Promise<Record[]> {
  return (await all<{ data: string }>(db, sql`SELECT data FROM events WHERE case_id = ${caseId} ORDER BY seq`)).map((r) => JSON.parse(r.data) as Record);
}
