import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDb, readMigrations } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { StoreError, storeProblem } from '../../src/store/errors.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { computeStats } from '../../src/stats/figures.ts';
import { step } from '../../src/conversation/machine.ts';

const tmpDb = () => join(mkdtempSync(join(tmpdir(), 'db-')), 'cases.db');

describe('the SQLite store', () => {
  it('opens with WAL, foreign keys and a busy timeout, migrated to the newest version', () => {
    const db = openDb(tmpDb());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('secure_delete', { simple: true })).toBe(1);
    const versions = db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
    expect(versions).toEqual(readMigrations().map((m) => m.version));
    db.close();
  });

  it.each(readMigrations().slice(0, -1).map((m) => m.version))('upgrades a database left at migration %i, keeping its data', (version) => {
    const path = tmpDb();
    const old = openDb(path, { migrateUpTo: version });
    old.prepare("INSERT INTO cases (id, platform, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, state) VALUES ('k1', 'terminal', 'u', 1, 1, 'oom_gpu_vae', 'gpu-oom-vae', 'v', '{}', 'p', '{}')").run();
    old.prepare("INSERT INTO events (case_id, seq, at, type, data) VALUES ('k1', 1, 1, 'opened', '{}')").run();
    old.close();

    const db = openDb(path);
    expect(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(readMigrations().at(-1)!.version);
    expect(db.prepare("SELECT entry FROM cases WHERE id = 'k1'").pluck().get()).toBe('gpu-oom-vae');
    expect(db.prepare("SELECT COUNT(*) FROM events WHERE case_id = 'k1'").pluck().get()).toBe(1);
    expect(migrate(db)).toEqual([]); // nothing left to apply
    db.close();
  });

  it('backfills the stats aggregates of an old database so stats match a new one', async () => {
    // One conversation, as records: offered, failed (same), offered, worked.
    const plan = { entry: 'gpu-oom-sampling', category: 'oom_gpu_sampling', steps: ['reduce-workload', 'reserve-vram'] };
    let t = step(undefined, { kind: 'open', at: 1000, caseId: 'k1', owner: 'u', lang: 'en', plan });
    const records = [...t.records];
    for (const c of [
      { kind: 'action', at: 2000, offer: 1, action: 'failed', actor: 'u', moderator: false },
      { kind: 'reason', at: 3000, offer: 2, reason: 'same', actor: 'u', moderator: false },
      { kind: 'action', at: 60_000, offer: 3, action: 'worked', actor: 'u', moderator: false },
    ] as const) {
      t = step(t.state, c);
      records.push(...t.records);
    }
    const newCase = { id: 'k1', platform: 'terminal', userId: 'u', createdAt: 1000, category: 'oom_gpu_sampling', entry: 'gpu-oom-sampling', kbVersion: 'v', facts: {}, paste: 'p', fingerprint: 'f', recognized: true };

    const fresh = openDb(tmpDb());
    await new CaseStore(sqliteSql(fresh)).create(newCase, records, t.state!);

    const path = tmpDb();
    const old = openDb(path, { migrateUpTo: 3 });
    old.prepare("INSERT INTO cases (id, platform, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, fingerprint, status, resolution, resolving_step, state) VALUES ('k1', 'terminal', 'u', 1000, 60000, 'oom_gpu_sampling', 'gpu-oom-sampling', 'v', '{}', 'p', 'f', 'resolved', 'confirmed', 'reserve-vram', '{}')").run();
    records.forEach((r, i) => old.prepare('INSERT INTO events (case_id, seq, at, type, step, data) VALUES (?, ?, ?, ?, ?, ?)').run('k1', i + 1, r.at, r.type, 'step' in r ? r.step : null, JSON.stringify(r)));
    old.close();
    const upgraded = openDb(path);

    // At one moment: the period a report covers ends at its `now`.
    const now = Date.now();
    expect(await computeStats(sqliteSql(upgraded), { now })).toEqual(await computeStats(sqliteSql(fresh), { now }));
    expect(await computeStats(sqliteSql(fresh))).toMatchObject({ medianStepsToResolution: 2, medianMinutesToResolution: 1 });
    expect((await computeStats(sqliteSql(fresh))).steps.find((s) => s.step === 'reduce-workload')).toMatchObject({ reached: 1, tried: 1, resolvedConfirmed: 0 });
  });

  it('keeps a row per question asked with its answer, written with the events and forgotten with the case', async () => {
    const db = openDb(tmpDb());
    const store = new CaseStore(sqliteSql(db));
    const generic = { entry: 'gpu-oom-other', category: 'oom_gpu_other', steps: ['reduce-workload'] };
    const sampling = { entry: 'gpu-oom-sampling', category: 'oom_gpu_sampling', steps: ['reduce-workload'] };
    const opened = step(undefined, { kind: 'open', at: 1000, caseId: 'k1', owner: 'u', lang: 'en', plan: generic, question: 'stage' });
    const newCase = { id: 'k1', platform: 'terminal', userId: 'u', createdAt: 1000, category: 'oom_gpu_other', entry: 'gpu-oom-other', kbVersion: 'v', facts: {}, paste: 'p', fingerprint: 'f', recognized: true };
    await store.create(newCase, opened.records, opened.state!);
    const questions = () => db.prepare('SELECT question, created_at AS createdAt, choice, typed FROM case_questions').all();
    expect(questions()).toEqual([{ question: 'stage', createdAt: 1000, choice: null, typed: 0 }]);

    const answered = step(opened.state, { kind: 'clarify', at: 2000, offer: 1, question: 'stage', choice: 'sampling', typed: true, node: 'KSampler', plan: sampling, actor: 'u', moderator: false });
    await store.append('k1', answered.records, answered.state!, { diagnosis: { category: 'oom_gpu_sampling', entry: 'gpu-oom-sampling', facts: { stage: 'sampling' } } });
    expect(questions()).toEqual([{ question: 'stage', createdAt: 1000, choice: 'sampling', typed: 1 }]);
    expect((await store.get('k1'))!.row).toMatchObject({ category: 'oom_gpu_sampling', entry: 'gpu-oom-sampling', facts: '{"stage":"sampling"}' });

    await store.forgetUser('u');
    expect(questions()).toEqual([]);
  });

  it('refuses a database made by a newer ComfyOOM, by name, for reading as for writing', () => {
    const path = tmpDb();
    const db = openDb(path);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_future.sql', 0)").run();
    db.close();
    const newest = readMigrations().at(-1)!.version;
    for (const readonly of [false, true]) {
      expect(() => openDb(path, { readonly })).toThrow(new StoreError(path, `${path} was made by a newer ComfyOOM (schema version 999; this one knows up to ${newest}): update ComfyOOM to use it`));
    }
  });

  it('opens read-only for reading: nothing created, nothing written, an older file upgraded first', () => {
    const path = tmpDb();
    expect(() => openDb(path, { readonly: true })).toThrow(/there is no case database at .* yet/);
    expect(existsSync(path)).toBe(false);

    openDb(path, { migrateUpTo: 3 }).close();
    const db = openDb(path, { readonly: true });
    expect(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(readMigrations().at(-1)!.version);
    expect(() => db.prepare('DELETE FROM cases').run()).toThrow(/readonly/);
    db.close();
  });

  it('tells a full disk in a sentence naming the file', () => {
    const path = tmpDb();
    const db = openDb(path);
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`);
    let problem: StoreError | undefined;
    try {
      db.exec(`INSERT INTO cases (id, platform, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, state) VALUES ('k', 't', 'u', 1, 1, 'c', 'e', 'v', '{}', '${'x'.repeat(100_000)}', '{}')`);
    } catch (e) {
      problem = storeProblem(e, path);
    }
    expect(problem?.message).toBe(`the disk holding the database ${path} is full: free some space, then run again (everything stored before this was kept)`);
    expect(storeProblem(new Error('a bug'), path)).toBeUndefined();
    db.close();
  });

  it('rolls a failing migration back as a whole', () => {
    const db = openDb(':memory:');
    const broken = [{ version: 999, name: '999_broken.sql', sql: 'CREATE TABLE half_done (x INTEGER); SELECT * FROM no_such_table;' }];
    expect(() => migrate(db, broken)).toThrow(/no_such_table/);
    expect(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'half_done'").pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM schema_migrations WHERE version = 999').pluck().get()).toBe(0);
  });
});
