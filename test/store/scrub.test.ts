// The scrub behind forget and retention (wipeFile) on a file whose pages were rebalanced over and
// over (pastes that grow and shrink move cells between pages): in short transactions, it leaves no
// byte of the deleted users' rows, and every other case reads back whole, its events in order.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { CaseStore, wipeFile } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql, value } from '../../src/store/sql.ts';
import { playCase, rng, storeCase } from './simulate.ts';

const left = (file: string, strings: string[]) => {
  const bytes = [file, `${file}-wal`].filter(existsSync).map((p) => readFileSync(p));
  return strings.filter((s) => bytes.some((b) => b.includes(s)));
};

it('leaves no byte of deleted users in a rebalanced file, and every other case whole', { timeout: 120_000 }, async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'scrub-')), 'cases.db');
  const db = sqliteSql(openDb(file));
  const store = new CaseStore(db);
  const r = rng(5);
  const marker = (u: number, i: number) => `paste-of-user${String(u).padStart(3, '0')}-case${i}`;
  for (let i = 0; i < 1500; i++) {
    const u = i % 100;
    await storeCase(store, { id: `c${i}`, platform: 'discord', channel: 'ch', userId: `user${u}`, createdAt: 1_700_000_000_000 + i, facts: {}, paste: `${marker(u, i)}\n${'x'.repeat(200 + Math.floor(r() * 600))}` }, playCase(r, `c${i}`, `user${u}`, 1_700_000_000_000 + i));
  }
  // Pastes that grow and shrink again move cells between pages, as long edits and re-diagnoses do.
  for (let round = 0; round < 6; round++) {
    for (let i = round; i < 1500; i += 3) {
      const size = round % 2 ? 100 : 3000;
      await sql`UPDATE cases SET paste = ${`${marker(i % 100, i)}\n${'y'.repeat(size)}`} WHERE id = ${`c${i}`}`.execute(db.db);
    }
  }
  const victims = [3, 17, 42, 77];
  const traces = victims.flatMap((u) => Array.from({ length: 15 }, (_, k) => marker(u, u + 100 * k)));
  for (const u of victims) await store.deleteUser(`user${u}`);
  const records = await store.records('c5');
  expect(left(file, traces)).not.toEqual([]);

  expect(await wipeFile(file)).toBe(true);
  expect(left(file, traces)).toEqual([]);
  expect(await value(db.db, sql`SELECT COUNT(*) AS n FROM cases`)).toBe(1500 - 15 * victims.length);
  expect(await value(db.db, sql`PRAGMA integrity_check`)).toBe('ok');
  // Another user's case reads back whole, its events in order, and the store goes on writing.
  expect((await store.get('c5'))!.row.paste).toContain(marker(5, 5));
  expect(await store.records('c5')).toEqual(records);
  await storeCase(store, { id: 'after', platform: 'discord', channel: 'ch', userId: 'user5', createdAt: 1_800_000_000_000, facts: {}, paste: 'later' }, playCase(r, 'after', 'user5', 1_800_000_000_000));
  expect(await store.lastOpen('discord', 'user5')).toBeDefined();
  await db.close();
});
