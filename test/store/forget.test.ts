// Forget and retention delete cases from the file itself: none of their strings may remain in any
// byte of the database or of its write-ahead log, and stats must report exactly what they did.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb, type Db } from '../../src/store/db.ts';
import { computeStats } from '../../src/store/stats.ts';
import { sample } from '../helpers/corpus.ts';
import { playCase, rng, storeCase } from './simulate.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 15, 12);

/** Every string that names a user or holds what they wrote. */
const traces = (user: string, caseIds: string[]) => [user, `thread of ${user}`, `paste of ${user}`, `${user} ran out of memory`, ...caseIds];

/** Which of the strings occur anywhere in the file or its write-ahead log, as raw bytes. */
function inFile(path: string, strings: string[]): string[] {
  const bytes = [path, `${path}-wal`].filter(existsSync).map((p) => readFileSync(p));
  return strings.filter((s) => bytes.some((b) => b.includes(s)));
}

/**
 * 600 cases of 60 people over 200 days, enough for SQLite to have split and rebalanced pages
 * (which leaves copies of moved rows behind): every status, questions, unrecognized errors.
 */
function filled(): { path: string; db: Db; store: CaseStore; casesOf: Map<string, string[]>; createdAt: Map<string, number> } {
  const path = join(mkdtempSync(join(tmpdir(), 'forget-')), 'cases.db');
  const db = openDb(path);
  const store = new CaseStore(db);
  const r = rng(11);
  const casesOf = new Map<string, string[]>();
  const createdAt = new Map<string, number>();
  const logs = ['cf-0214', 'cf-0009', 'cf-0016'].map((id) => sample(id).text);
  db.transaction(() => {
    for (let i = 0; i < 600; i++) {
      const user = `user-${(i * 37) % 60}`;
      const id = Math.floor(r() * 2 ** 48).toString(36);
      const at = NOW - Math.floor(r() * 200 * DAY);
      casesOf.set(user, [...(casesOf.get(user) ?? []), id]);
      createdAt.set(id, at);
      const transitions = playCase(r, id, user, at);
      const unrecognized = i % 7 === 0;
      storeCase(
        store,
        { id, platform: 'discord', channel: `channel-${i % 5}`, userId: user, createdAt: at, facts: { exception: { message: `${user} ran out of memory` } }, paste: `${logs[i % 3]}\npaste of ${user}`, ...(unrecognized ? { recognized: false, fingerprint: `fp-${i % 3}` } : {}) },
        transitions,
      );
      store.setThread(id, `thread of ${user} ${i}`);
    }
  })();
  return { path, db, store, casesOf, createdAt };
}

/** Stats without the examples of unrecognized errors, which come from a kept case's text. */
const figures = (db: Db, sinceMs?: number) => {
  const s = computeStats(db, { now: NOW, ...(sinceMs !== undefined ? { sinceMs } : {}) });
  return { ...s, unrecognized: s.unrecognized.map(({ example: _text, ...counts }) => counts) };
};

describe('forget and retention', () => {
  it("forget leaves no byte of the user's cases in the file or its log, and stats unchanged", () => {
    const { path, db, store, casesOf } = filled();
    const before = figures(db);
    // Names that are no other's prefix, so a trace found is theirs.
    for (const victim of ['user-6', 'user-7', 'user-8', 'user-9']) {
      const mine = traces(victim, casesOf.get(victim)!);
      expect(inFile(path, mine)).toEqual(mine);
      expect(store.forgetUser(victim)).toBe(casesOf.get(victim)!.length);
      expect(inFile(path, mine), victim).toEqual([]);
      expect(figures(db)).toEqual(before);
    }
    // Others' cases stay, readable.
    const kept = traces('user-42', casesOf.get('user-42')!);
    expect(inFile(path, kept)).toEqual(kept);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('retention deletes whole days past the limit the same way, and stats stay true', () => {
    const { path, db, store, createdAt } = filled();
    const allTime = figures(db);
    const lastMonth = figures(db, 30 * DAY);
    const cutoff = (Math.floor(NOW / DAY) - 90) * DAY;
    const expired = [...createdAt].filter(([, at]) => at < cutoff).map(([id]) => id);
    expect(expired.length).toBeGreaterThan(100);
    expect(inFile(path, expired)).not.toEqual([]);

    expect(store.expire(90, NOW)).toBe(expired.length);
    expect(inFile(path, expired)).toEqual([]);
    expect(db.prepare('SELECT MIN(created_at) FROM cases').pluck().get()).toBeGreaterThanOrEqual(cutoff);
    expect(db.prepare('SELECT COUNT(*) FROM cases').pluck().get()).toBe(600 - expired.length);
    expect(figures(db)).toEqual(allTime);
    expect(figures(db, 30 * DAY)).toEqual(lastMonth);
    // Again the same day, and later that day: nothing more goes.
    expect(store.expire(90, NOW + 3_600_000)).toBe(0);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });
});
