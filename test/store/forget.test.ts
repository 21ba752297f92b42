// Forget and retention delete cases from the store itself: none of their strings may remain in any
// row, nor, in an SQLite file, in any byte of the database or of its write-ahead log; and stats
// must report exactly what they did. On both stores.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { CaseStore } from '../../src/store/cases.ts';
import { openStore, type StoreLocation } from '../../src/store/open.ts';
import { value, type Sql } from '../../src/store/sql.ts';
import { computeStats } from '../../src/stats/figures.ts';
import { describeStores } from '../helpers/stores.ts';
import { sample } from '../helpers/corpus.ts';
import { playCase, rng, storeCase } from './simulate.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 15, 12);

/** Every string that names a user or holds what they wrote. */
const traces = (user: string, caseIds: string[]) => [user, `thread of ${user}`, `paste of ${user}`, `${user} ran out of memory`, ...caseIds];

/**
 * Which of the strings the store still holds: in an SQLite file, anywhere in the file or its
 * write-ahead log, as raw bytes; on PostgreSQL (whose files are the server's), in any row.
 */
async function inStore(where: StoreLocation, db: Sql, strings: string[]): Promise<string[]> {
  if (!where.databaseUrl) {
    const bytes = [where.db, `${where.db}-wal`].filter(existsSync).map((p) => readFileSync(p));
    return strings.filter((s) => bytes.some((b) => b.includes(s)));
  }
  const found: string[] = [];
  for (const s of strings) {
    const like = `%${s}%`;
    const n = await value<number>(
      db.db,
      sql`SELECT (SELECT COUNT(*) FROM cases WHERE id = ${s} OR user_id = ${s} OR thread LIKE ${like} OR paste LIKE ${like} OR facts LIKE ${like} OR state LIKE ${like})
        + (SELECT COUNT(*) FROM events WHERE case_id = ${s} OR data LIKE ${like}) + (SELECT COUNT(*) FROM drafts WHERE user_id = ${s} OR paste LIKE ${like}) AS n`,
    );
    if (n) found.push(s);
  }
  return found;
}

/**
 * 600 cases of 60 people over 200 days, enough for SQLite to have split and rebalanced pages
 * (which leaves copies of moved rows behind): every status, questions, unrecognized errors.
 */
async function filled(where: StoreLocation): Promise<{ db: Sql; store: CaseStore; casesOf: Map<string, string[]>; createdAt: Map<string, number> }> {
  const db = await openStore(where);
  const store = new CaseStore(db);
  const r = rng(11);
  const casesOf = new Map<string, string[]>();
  const createdAt = new Map<string, number>();
  const logs = ['cf-0214', 'cf-0009', 'cf-0016'].map((id) => sample(id).text);
  for (let i = 0; i < 600; i++) {
    const user = `user-${(i * 37) % 60}`;
    const id = Math.floor(r() * 2 ** 48).toString(36);
    const at = NOW - Math.floor(r() * 200 * DAY);
    casesOf.set(user, [...(casesOf.get(user) ?? []), id]);
    createdAt.set(id, at);
    const transitions = playCase(r, id, user, at);
    const unrecognized = i % 7 === 0;
    await storeCase(
      store,
      { id, platform: 'discord', channel: `channel-${i % 5}`, userId: user, createdAt: at, facts: { exception: { message: `${user} ran out of memory` } }, paste: `${logs[i % 3]}\npaste of ${user}`, ...(unrecognized ? { recognized: false, fingerprint: `fp-${i % 3}` } : {}) },
      transitions,
    );
    await store.setThread(id, `thread of ${user} ${i}`);
  }
  return { db, store, casesOf, createdAt };
}

/** Another process holding a read transaction (an old snapshot) on the file until told to end. */
async function readingProcess(file: string): Promise<{ end: () => Promise<void> }> {
  const script = `const db = require('better-sqlite3')(process.argv[1], { readonly: true });
    db.exec('BEGIN'); db.prepare('SELECT COUNT(*) FROM events').get(); console.log('reading');
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the reader exited with ${code}`)));
  });
  return { end: () => new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.stdin.write('end\n'))) };
}

/** Stats without the examples of unrecognized errors, which come from a kept case's text. */
const figures = async (db: Sql, sinceMs?: number) => {
  const s = await computeStats(db, { now: NOW, ...(sinceMs !== undefined ? { sinceMs } : {}) });
  return { ...s, unrecognized: s.unrecognized.map(({ example: _text, ...counts }) => counts) };
};

describeStores('forget and retention', ({ kind, fresh }) => {
  const integrity = async (db: Sql) => {
    if (kind === 'sqlite') expect(await value(db.db, sql`PRAGMA integrity_check`)).toBe('ok');
  };

  it("forget leaves no byte of the user's cases in the file or its log, and stats unchanged", async () => {
    const where = await fresh();
    const { db, store, casesOf } = await filled(where);
    const inFile = (strings: string[]) => inStore(where, db, strings);
    const before = await figures(db);
    // Names that are no other's prefix, so a trace found is theirs.
    for (const victim of ['user-6', 'user-7', 'user-8', 'user-9']) {
      const mine = traces(victim, casesOf.get(victim)!);
      expect(await inFile(mine)).toEqual(mine);
      expect(await store.forgetUser(victim)).toEqual({ cases: casesOf.get(victim)!.length, scrubbed: true });
      expect(await inFile(mine), victim).toEqual([]);
      expect(await figures(db)).toEqual(before);
    }
    // Others' cases stay, readable.
    const kept = traces('user-42', casesOf.get('user-42')!);
    expect(await inFile(kept)).toEqual(kept);
    await integrity(db);
    await db.close();
  });

  it.runIf(kind === 'sqlite')('says when another process reading an older snapshot keeps the last copies, and scrubs them once it ends', async () => {
    const where = await fresh();
    const { db, store, casesOf } = await filled(where);
    const mine = traces('user-6', casesOf.get('user-6')!);
    const reader = await readingProcess(where.db);
    try {
      expect(await store.forgetUser('user-6')).toEqual({ cases: casesOf.get('user-6')!.length, scrubbed: false });
      expect(await inStore(where, db, mine)).not.toEqual([]);
    } finally {
      await reader.end();
    }
    expect(await store.wipe()).toBe(true);
    expect(await inStore(where, db, mine)).toEqual([]);
    await integrity(db);
    await db.close();
  });

  it('retention deletes whole days past the limit the same way, and stats stay true', async () => {
    const where = await fresh();
    const { db, store, createdAt } = await filled(where);
    const inFile = (strings: string[]) => inStore(where, db, strings);
    const allTime = await figures(db);
    const lastMonth = await figures(db, 30 * DAY);
    const cutoff = (Math.floor(NOW / DAY) - 90) * DAY;
    const expired = [...createdAt].filter(([, at]) => at < cutoff).map(([id]) => id);
    expect(expired.length).toBeGreaterThan(100);
    expect(await inFile(expired)).not.toEqual([]);

    expect(await store.expire(90, NOW)).toBe(expired.length);
    expect(await inFile(expired)).toEqual([]);
    expect(await value(db.db, sql`SELECT MIN(created_at) AS n FROM cases`)).toBeGreaterThanOrEqual(cutoff);
    expect(await value(db.db, sql`SELECT COUNT(*) AS n FROM cases`)).toBe(600 - expired.length);
    expect(await figures(db)).toEqual(allTime);
    expect(await figures(db, 30 * DAY)).toEqual(lastMonth);
    // Again the same day, and later that day: nothing more goes.
    expect(await store.expire(90, NOW + 3_600_000)).toBe(0);
    await integrity(db);
    await db.close();
  });
});
