// Migration 008 fills the step counters of a database written before it from its event log, so
// learning and the per-entry funnels start from what was already recorded.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { playCase, rng, storeCase } from './simulate.ts';

const tmpDb = () => join(mkdtempSync(join(tmpdir(), 'backfill-')), 'cases.db');
const counters = (db: ReturnType<typeof openDb>) => ({
  learned: db.prepare('SELECT * FROM step_outcomes ORDER BY entry, context, step').all(),
  daily: db.prepare('SELECT * FROM step_days ORDER BY day, platform, server, entry, step').all(),
});

describe('migration 008', () => {
  it('backfills the step counters from the events, equal to what the store writes as it goes', async () => {
    const fresh = openDb(tmpDb());
    const old = openDb(tmpDb(), { migrateUpTo: 7 });
    const r = rng(8);
    const cases = Array.from({ length: 120 }, (_, i) => ({ i, at: 1_700_000_000_000 + i * 3_600_000, transitions: playCase(r, `c${i}`, `u${i % 9}`, 1_700_000_000_000 + i * 3_600_000) }));
    for (const c of cases) await storeCase(new CaseStore(sqliteSql(fresh)), { id: `c${c.i}`, platform: 'slack', server: 'T1', userId: `u${c.i % 9}`, createdAt: c.at, facts: {}, paste: 'p' }, c.transitions);
    // The same cases as a database from before migration 008 holds them: rows and events only.
    const insertEvent = old.prepare('INSERT INTO events (case_id, seq, at, type, step, data) VALUES (?, ?, ?, ?, ?, ?)');
    for (const c of cases) {
      const last = c.transitions.at(-1)!.state;
      old
        .prepare("INSERT INTO cases (id, platform, server, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, state, status) VALUES (?, 'slack', 'T1', ?, ?, ?, 'x', 'x', 'v', '{}', 'p', '{}', ?)")
        .run(`c${c.i}`, `u${c.i % 9}`, c.at, c.at, last.status);
      let seq = 0;
      for (const r of c.transitions.flatMap((t) => t.records)) insertEvent.run(`c${c.i}`, ++seq, r.at, r.type, 'step' in r ? r.step : 'credited' in r ? r.credited : null, JSON.stringify(r));
    }
    old.close();
    const upgraded = openDb(old.name);
    expect(counters(upgraded).learned.length).toBe(8); // every step of the three plans played
    expect(counters(upgraded)).toEqual(counters(fresh));
  });
});
