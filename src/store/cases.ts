// Cases and their event log in SQLite. Every write of a transition (its records and the new state
// snapshot) is one transaction, so a crash never leaves a case half-updated. Other processes write
// the same file (chats, bots, forget): a transaction that reads before it writes must hold the write
// lock from its start (BEGIN IMMEDIATE, which waits for the busy timeout), or SQLite refuses its
// upgrade from reader to writer at once with SQLITE_BUSY. A lone write statement takes the lock
// when it starts, and waits, by itself.
import type { CaseState, Record } from '../conversation/machine.ts';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.ts';
import { archiveCases, DAY_MS, dayOf } from './archive.ts';
import { outcomesOf } from '../learn/outcomes.ts';
import { OutcomeCounters } from './outcomes.ts';

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
  state: string;
}

/** A stored case: its row, its state, and the sequence number of its last event. */
export interface Stored {
  row: CaseRow;
  state: CaseState;
  seq: number;
}

export class CaseStore {
  private readonly insertCase;
  private readonly insertEvent;
  private readonly updateCase;
  private readonly lastSeq;
  private readonly stepReached;
  private readonly stepTried;
  private readonly stepMovedOn;
  private readonly markResolved;
  private readonly questionAsked;
  private readonly questionAnswered;
  private readonly rediagnose;
  private readonly nthOldest;
  private readonly bySource;
  private readonly openInThread;
  private readonly outcomes: OutcomeCounters;
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: Db) {
    this.insertCase = db.prepare(
      `INSERT INTO cases (id, platform, server, channel, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, fingerprint, recognized, status, state, source, thread)
       VALUES (@id, @platform, @server, @channel, @userId, @createdAt, @createdAt, @category, @entry, @kbVersion, @facts, @paste, @fingerprint, @recognized, 'open', '{}', @source, @thread)`,
    );
    this.insertEvent = db.prepare('INSERT INTO events (case_id, seq, at, type, step, data) VALUES (?, ?, ?, ?, ?, ?)');
    this.updateCase = db.prepare(
      'UPDATE cases SET updated_at = @at, status = @status, resolving_step = @resolvingStep, resolution = @resolution, state = @state, steps_offered = steps_offered + @offered WHERE id = @id',
    );
    this.lastSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM events WHERE case_id = ?').pluck();
    // The aggregates stats read (migration 004), kept in step with the events in the same transaction.
    this.stepReached = db.prepare('INSERT OR IGNORE INTO case_steps (case_id, step, created_at) SELECT id, ?, created_at FROM cases WHERE id = ?');
    this.stepTried = db.prepare('UPDATE case_steps SET tried = 1 WHERE case_id = ? AND step = ?');
    this.stepMovedOn = db.prepare('UPDATE case_steps SET moved_on = 1 WHERE case_id = ? AND step = ?');
    this.markResolved = db.prepare('UPDATE cases SET resolved_at = ? WHERE id = ?');
    // Questions put before the first step and their answers (migration 005).
    this.questionAsked = db.prepare('INSERT OR IGNORE INTO case_questions (case_id, question, created_at) SELECT id, ?, created_at FROM cases WHERE id = ?');
    this.questionAnswered = db.prepare('UPDATE case_questions SET choice = ?, typed = ? WHERE case_id = ? AND question = ?');
    this.rediagnose = db.prepare('UPDATE cases SET category = @category, entry = @entry, facts = @facts WHERE id = @id');
    this.nthOldest = db.prepare(`SELECT created_at FROM cases WHERE created_at < ? ORDER BY created_at LIMIT 1 OFFSET ${EXPIRE_BATCH - 1}`).pluck();
    this.bySource = db.prepare('SELECT id FROM cases WHERE platform = ? AND source = ?').pluck();
    this.openInThread = db.prepare("SELECT id FROM cases WHERE platform = ? AND thread = ? AND status = 'open'").pluck();
    // What each step did, per entry and setup and per day (migration 008), for learning and stats.
    this.outcomes = new OutcomeCounters(db);
  }

  /**
   * Creates a case with its first records, atomically, unless its source already opened one or its
   * thread holds an open one: decided under the write lock, so two processes, or two deliveries
   * of one message, can never both create (the unique indexes of migration 007 stand behind it).
   */
  create(c: NewCase, records: Record[], state: CaseState): Created {
    return this.db
      .transaction((): Created => {
        const bySource = c.source === undefined ? undefined : (this.bySource.get(c.platform, c.source) as string | undefined);
        if (bySource) return { existing: bySource, by: 'source' };
        const inThread = c.thread === undefined ? undefined : (this.openInThread.get(c.platform, c.thread) as string | undefined);
        if (inThread) return { existing: inThread, by: 'thread' };
        this.insertCase.run({
          ...c,
          server: c.server ?? null,
          channel: c.channel ?? null,
          facts: JSON.stringify(c.facts),
          recognized: c.recognized ? 1 : 0,
          source: c.source ?? null,
          thread: c.thread ?? null,
        });
        this.write(c.id, records, state);
        return { created: true };
      })
      .immediate();
  }

  /**
   * Appends a transition's records and the state they lead to, if the case's last event is still
   * `seq` (the one the transition was decided from): another process may have moved the case on
   * meanwhile (two sweeps, two clicks in two shards), and then nothing is written and false comes
   * back, for the caller to read the case again and decide anew. Without `seq` (bulk loading),
   * no check. An answer to the question before the first step completes the case's first
   * diagnosis, so its facts and entry come along.
   */
  append(caseId: string, records: Record[], state: CaseState, o: { seq?: number; diagnosis?: Rediagnosis } = {}): boolean {
    if (!records.length) return true;
    return this.db
      .transaction(() => {
        if (o.seq !== undefined && this.lastSeq.get(caseId) !== o.seq) return false;
        this.write(caseId, records, state);
        if (o.diagnosis) this.rediagnose.run({ id: caseId, category: o.diagnosis.category, entry: o.diagnosis.entry, facts: JSON.stringify(o.diagnosis.facts) });
        return true;
      })
      .immediate();
  }

  private write(caseId: string, records: Record[], state: CaseState): void {
    let seq = this.lastSeq.get(caseId) as number;
    for (const r of records) {
      const step = 'step' in r ? r.step : 'credited' in r ? r.credited : null;
      this.insertEvent.run(caseId, ++seq, r.at, r.type, step, JSON.stringify(r));
      if (r.type === 'offered') this.stepReached.run(r.step, caseId);
      else if (r.type === 'answered' && r.answer !== 'skipped' && r.reason !== 'could_not_apply') this.stepTried.run(caseId, r.step);
      else if (r.type === 'plan_switched') this.stepMovedOn.run(caseId, r.credited);
      else if (r.type === 'resolved') this.markResolved.run(r.at, caseId);
      else if (r.type === 'asked') this.questionAsked.run(r.question, caseId);
      else if (r.type === 'clarified') this.questionAnswered.run(r.choice, r.typed ? 1 : 0, caseId, r.question);
    }
    this.outcomes.add(caseId, outcomesOf(records, state));
    this.updateCase.run({
      id: caseId,
      at: records.at(-1)!.at,
      status: state.status,
      resolvingStep: state.resolvingStep ?? null,
      resolution: state.resolution ?? null,
      state: JSON.stringify(state),
      offered: records.filter((r) => r.type === 'offered').length,
    });
  }

  /** A statement prepared once per connection: the bots read a case several times per message. */
  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  get(caseId: string): Stored | undefined {
    const row = this.sql('SELECT * FROM cases WHERE id = ?').get(caseId) as CaseRow | undefined;
    return row && { row, state: JSON.parse(row.state) as CaseState, seq: this.lastSeq.get(caseId) as number };
  }

  /** The case a source opened, if any. */
  fromSource(platform: string, source: string): string | undefined {
    return this.bySource.get(platform, source) as string | undefined;
  }

  records(caseId: string): Record[] {
    return (this.sql('SELECT data FROM events WHERE case_id = ? ORDER BY seq').pluck().all(caseId) as string[]).map((d) => JSON.parse(d) as Record);
  }

  /** The owner's most recently active open case on a platform (and channel, when given). */
  lastOpen(platform: string, userId: string, channel?: string): string | undefined {
    const sql = `SELECT id FROM cases WHERE platform = ? AND user_id = ? AND status = 'open'${channel ? ' AND channel = ?' : ''} ORDER BY updated_at DESC, rowid DESC LIMIT 1`;
    const args = channel ? [platform, userId, channel] : [platform, userId];
    return this.sql(sql).pluck().get(...args) as string | undefined;
  }

  /** Open cases with no activity since `before`. */
  idleOpen(before: number): string[] {
    return this.sql("SELECT id FROM cases WHERE status = 'open' AND updated_at < ?").pluck().all(before) as string[];
  }

  /**
   * Remembers the chat thread a case runs in, unless another open case runs there already (then
   * false, and the case keeps running where it was).
   */
  setThread(caseId: string, thread: string): boolean {
    return this.db
      .transaction(() => {
        const row = this.sql('SELECT platform FROM cases WHERE id = ?').get(caseId) as { platform: string } | undefined;
        const other = row && (this.openInThread.get(row.platform, thread) as string | undefined);
        if (!row || (other && other !== caseId)) return false;
        this.sql('UPDATE cases SET thread = ? WHERE id = ?').run(thread, caseId);
        return true;
      })
      .immediate();
  }

  /** The open case that runs in a chat thread, if any (there is at most one). */
  caseInThread(platform: string, thread: string): string | undefined {
    return this.openInThread.get(platform, thread) as string | undefined;
  }

  /** Records which message carries the case's live buttons; returns the one that did before. */
  swapButtons(caseId: string, ref: string | null): string | undefined {
    return this.db
      .transaction(() => {
        const before = this.sql('SELECT buttons FROM cases WHERE id = ?').pluck().get(caseId) as string | null | undefined;
        this.sql('UPDATE cases SET buttons = ? WHERE id = ?').run(ref, caseId);
        return before ?? undefined;
      })
      .immediate();
  }

  /** Forgets which message carries the case's live buttons, if it is still `ref` (they went another way). */
  dropButtons(caseId: string, ref: string): void {
    this.sql('UPDATE cases SET buttons = NULL WHERE id = ? AND buttons = ?').run(caseId, ref);
  }

  /**
   * Deletes a case that never reached anyone (its first post failed where the bot cannot post):
   * not an outcome, so not archived for stats either.
   */
  discard(caseId: string): void {
    this.sql('DELETE FROM cases WHERE id = ?').run(caseId);
  }

  saveDraft(d: NewDraft): void {
    this.sql('INSERT INTO drafts (id, platform, server, user_id, created_at, paste) VALUES (?, ?, ?, ?, ?, ?)').run(d.id, d.platform, d.server ?? null, d.userId, d.createdAt, d.paste);
  }

  /** A draft's paste, taken (deleted) so that it opens one case at most; only its author's. */
  takeDraft(id: string, platform: string, userId: string): string | undefined {
    return this.sql('DELETE FROM drafts WHERE id = ? AND platform = ? AND user_id = ? RETURNING paste').pluck().get(id, platform, userId) as string | undefined;
  }

  /** True the first time a platform delivery (a Slack event id) is seen, false for a redelivery. */
  firstDelivery(platform: string, id: string, at: number): boolean {
    return this.sql('INSERT OR IGNORE INTO deliveries (platform, id, at) VALUES (?, ?, ?)').run(platform, id, at).changes === 1;
  }

  /** How many cases a user has on a platform (what forget would delete). */
  countOf(userId: string, platform: string): number {
    return this.sql('SELECT COUNT(*) FROM cases WHERE user_id = ? AND platform = ?').pluck().get(userId, platform) as number;
  }

  /**
   * Deletes one user's cases and, by cascade, their events, leaving nothing of them in the file
   * (see `wipe`); stats keep counting them, anonymously. Returns how many cases went.
   */
  forgetUser(userId: string, platform?: string): number {
    const n = this.deleteUser(userId, platform);
    // Even with nothing deleted: a forget whose wipe was interrupted is finished by running it again.
    this.wipe();
    return n;
  }

  /** forgetUser without the wipe, for a caller that rewrites the file elsewhere (off its event loop). */
  deleteUser(userId: string, platform?: string): number {
    const where = `user_id = ?${platform ? ' AND platform = ?' : ''}`;
    const params = platform ? [userId, platform] : [userId];
    return this.delete(where, params, `DELETE FROM drafts WHERE ${where}`);
  }

  /**
   * Retention: deletes, as forgetUser does, the cases created before the UTC day `days` days ago.
   * Whole days go at once, so the file is rewritten at most once a day however often this runs,
   * and the archive holds complete days. Returns how many cases went.
   */
  expire(days: number, now = Date.now()): number {
    const { cases, wipe } = this.deleteExpired(days, now);
    if (wipe) this.wipe();
    return cases;
  }

  /** expire without the wipe, for a caller that rewrites the file elsewhere: how many cases went, and whether anything did. */
  deleteExpired(days: number, now = Date.now()): { cases: number; wipe: boolean } {
    const before = (dayOf(now) - days) * DAY_MS;
    let n = 0;
    for (;;) {
      const last = this.nthOldest.get(before) as number | undefined;
      n += this.delete('created_at < ?', [last === undefined ? before : last + 1]);
      if (last === undefined) break;
    }
    const drafts = this.sql('DELETE FROM drafts WHERE created_at < ?').run(before).changes;
    return { cases: n, wipe: n > 0 || drafts > 0 };
  }

  /** Housekeeping of what only guards against doubles: drafts nobody took and delivery ids, after `maxAgeMs`. */
  prune(now: number, maxAgeMs: number): void {
    this.sql('DELETE FROM drafts WHERE created_at < ?').run(now - maxAgeMs);
    this.sql('DELETE FROM deliveries WHERE at < ?').run(now - maxAgeMs);
  }

  /** Deletes the cases `where` selects (and whatever else `also` deletes with the same parameters), their counts added to the stats archive first. */
  private delete(where: string, params: unknown[], also?: string): number {
    return this.db
      .transaction(() => {
        archiveCases(this.db, where, params);
        if (also) this.sql(also).run(...params);
        return this.sql(`DELETE FROM cases WHERE ${where}`).run(...params).changes;
      })
      .immediate();
  }

  /** See the function below. */
  wipe(): void {
    wipe(this.db);
  }
}

/**
 * Leaves no copy of deleted rows in the file. secure_delete (set at open) zeroes the rows, but
 * SQLite leaves stale copies of cells in pages it rebalanced earlier; VACUUM rewrites every page
 * from the live rows, and the TRUNCATE checkpoint moves the result out of the write-ahead log
 * and empties it (waiting, within the busy timeout, for readers on older snapshots; one that
 * reads past that leaves the log to the next checkpoint). The time taken grows with the file,
 * and other connections' writes wait meanwhile.
 */
export function wipe(db: Db): void {
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
}
