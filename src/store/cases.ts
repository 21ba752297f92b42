// Cases and their event log in SQLite. Every write of a transition (its records and the new state
// snapshot) is one transaction, so a crash never leaves a case half-updated. Other processes write
// the same file (chats, bots, forget): a transaction that reads before it writes must hold the write
// lock from its start (BEGIN IMMEDIATE, which waits for the busy timeout), or SQLite refuses its
// upgrade from reader to writer at once with SQLITE_BUSY. A lone write statement takes the lock
// when it starts, and waits, by itself.
import type { CaseState, Record } from '../conversation/machine.ts';
import type { Db } from './db.ts';
import { archiveCases, DAY_MS, dayOf } from './archive.ts';

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
  state: string;
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

  constructor(readonly db: Db) {
    this.insertCase = db.prepare(
      `INSERT INTO cases (id, platform, server, channel, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, fingerprint, recognized, status, state)
       VALUES (@id, @platform, @server, @channel, @userId, @createdAt, @createdAt, @category, @entry, @kbVersion, @facts, @paste, @fingerprint, @recognized, 'open', '{}')`,
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
  }

  /** Creates a case with its first records, atomically. */
  create(c: NewCase, records: Record[], state: CaseState): void {
    this.db.transaction(() => {
      this.insertCase.run({
        ...c,
        server: c.server ?? null,
        channel: c.channel ?? null,
        facts: JSON.stringify(c.facts),
        recognized: c.recognized ? 1 : 0,
      });
      this.write(c.id, records, state);
    }).immediate();
  }

  /**
   * Appends a transition's records and the state they lead to. An answer to the question before
   * the first step completes the case's first diagnosis, so its facts and entry come along.
   */
  append(caseId: string, records: Record[], state: CaseState, diagnosis?: Rediagnosis): void {
    if (!records.length) return;
    this.db.transaction(() => {
      this.write(caseId, records, state);
      if (diagnosis) this.rediagnose.run({ id: caseId, category: diagnosis.category, entry: diagnosis.entry, facts: JSON.stringify(diagnosis.facts) });
    }).immediate();
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

  get(caseId: string): { row: CaseRow; state: CaseState } | undefined {
    const row = this.db.prepare('SELECT * FROM cases WHERE id = ?').get(caseId) as CaseRow | undefined;
    return row && { row, state: JSON.parse(row.state) as CaseState };
  }

  records(caseId: string): Record[] {
    return (this.db.prepare('SELECT data FROM events WHERE case_id = ? ORDER BY seq').pluck().all(caseId) as string[]).map((d) => JSON.parse(d) as Record);
  }

  /** The owner's most recently active open case on a platform (and channel, when given). */
  lastOpen(platform: string, userId: string, channel?: string): string | undefined {
    const sql = `SELECT id FROM cases WHERE platform = ? AND user_id = ? AND status = 'open'${channel ? ' AND channel = ?' : ''} ORDER BY updated_at DESC, rowid DESC LIMIT 1`;
    const args = channel ? [platform, userId, channel] : [platform, userId];
    return this.db.prepare(sql).pluck().get(...args) as string | undefined;
  }

  /** Open cases with no activity since `before`. */
  idleOpen(before: number): string[] {
    return this.db.prepare("SELECT id FROM cases WHERE status = 'open' AND updated_at < ?").pluck().all(before) as string[];
  }

  /** Remembers the chat thread a case runs in. */
  setThread(caseId: string, thread: string): void {
    this.db.prepare('UPDATE cases SET thread = ? WHERE id = ?').run(thread, caseId);
  }

  /** The open case that runs in a chat thread, if any. */
  caseInThread(platform: string, thread: string): string | undefined {
    return this.db.prepare("SELECT id FROM cases WHERE platform = ? AND thread = ? AND status = 'open' ORDER BY updated_at DESC LIMIT 1").pluck().get(platform, thread) as string | undefined;
  }

  /**
   * Deletes one user's cases and, by cascade, their events, leaving nothing of them in the file
   * (see `wipe`); stats keep counting them, anonymously. Returns how many cases went.
   */
  forgetUser(userId: string, platform?: string): number {
    const n = this.delete(`user_id = ?${platform ? ' AND platform = ?' : ''}`, platform ? [userId, platform] : [userId]);
    // Even with nothing deleted: a forget whose wipe was interrupted is finished by running it again.
    this.wipe();
    return n;
  }

  /**
   * Retention: deletes, as forgetUser does, the cases created before the UTC day `days` days ago.
   * Whole days go at once, so the file is rewritten at most once a day however often this runs,
   * and the archive holds complete days. Returns how many cases went.
   */
  expire(days: number, now = Date.now()): number {
    const before = (dayOf(now) - days) * DAY_MS;
    let n = 0;
    for (;;) {
      const last = this.nthOldest.get(before) as number | undefined;
      n += this.delete('created_at < ?', [last === undefined ? before : last + 1]);
      if (last === undefined) break;
    }
    if (n) this.wipe();
    return n;
  }

  /** Deletes the cases `where` selects, their counts added to the stats archive first. */
  private delete(where: string, params: unknown[]): number {
    return this.db
      .transaction(() => {
        archiveCases(this.db, where, params);
        return this.db.prepare(`DELETE FROM cases WHERE ${where}`).run(...params).changes;
      })
      .immediate();
  }

  /**
   * Leaves no copy of deleted rows in the file. secure_delete (set at open) zeroes the rows, but
   * SQLite leaves stale copies of cells in pages it rebalanced earlier; VACUUM rewrites every page
   * from the live rows, and the TRUNCATE checkpoint moves the result out of the write-ahead log
   * and empties it (waiting, within the busy timeout, for readers on older snapshots; one that
   * reads past that leaves the log to the next checkpoint). The time taken grows with the file,
   * and other processes' writes wait meanwhile.
   */
  private wipe(): void {
    this.db.exec('VACUUM');
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }
}
