// The store's rules about cases (migration 007): one case per source, one open case per thread,
// decided in the transaction that creates the case, also across processes and machines and after
// a restart; an append decided from a case that another process has moved on meanwhile is
// refused; stats and their archive are scoped by platform and server. On both stores.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { step, type PlanRef } from '../../src/conversation/machine.ts';
import { CaseStore, type NewCase } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { openStore, type StoreLocation } from '../../src/store/open.ts';
import { all, value, type Sql } from '../../src/store/sql.ts';
import { computeStats } from '../../src/stats/figures.ts';
import { describeStores } from '../helpers/stores.ts';

const plan: PlanRef = { entry: 'gpu-oom-sampling', category: 'oom_gpu_sampling', steps: ['reduce-workload', 'reserve-vram'] };

function opened(id: string, owner = 'u', at = 1000) {
  return step(undefined, { kind: 'open', at, caseId: id, owner, lang: 'en', plan });
}

const newCase = (id: string, o: Partial<NewCase> = {}): NewCase => ({
  id,
  platform: 'discord',
  server: 'g1',
  userId: 'u',
  createdAt: 1000,
  category: plan.category,
  entry: plan.entry,
  kbVersion: 'v',
  facts: { exception: { message: `error of ${id}` } },
  paste: 'p',
  fingerprint: `fp-${id}`,
  recognized: true,
  ...o,
});

function create(store: CaseStore, id: string, o: Partial<NewCase> = {}) {
  const t = opened(id, o.userId);
  return store.create(newCase(id, o), t.records, t.state!);
}

describeStores('the store', ({ fresh }) => {
  const opened: Sql[] = [];
  const open = async (where: StoreLocation) => {
    const s = await openStore(where);
    opened.push(s);
    return new CaseStore(s);
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });

  describe('one case per source and per thread', () => {
    it('opens at most one case per source, also from a second connection (another process, or after a restart)', async () => {
      const where = await fresh();
      const a = await open(where);
      const b = await open(where);
      expect(await create(a, 'k1', { source: 'm1' })).toEqual({ created: true });
      expect(await create(b, 'k2', { source: 'm1' })).toEqual({ existing: 'k1', by: 'source' });
      expect(await create(b, 'k3', { source: 'm1', platform: 'slack' })).toEqual({ created: true });
      expect(await b.fromSource('discord', 'm1')).toBe('k1');
      expect(await value(a.db, sql`SELECT COUNT(*) AS n FROM cases`)).toBe(2);
    });

    it('creates one case when many connections open the same message and the same thread at the same moment', async () => {
      const where = await fresh();
      const stores = await Promise.all(Array.from({ length: 6 }, () => open(where)));
      const bySource = await Promise.all(stores.map((s, k) => create(s, `s${k}`, { source: 'm1' })));
      expect(bySource.filter((r) => 'created' in r)).toHaveLength(1);
      const winner = `s${bySource.findIndex((r) => 'created' in r)}`;
      for (const r of bySource) if (!('created' in r)) expect(r).toEqual({ existing: winner, by: 'source' });
      const byThread = await Promise.all(stores.map((s, k) => create(s, `t${k}`, { thread: 'th1', userId: `u${k}` })));
      expect(byThread.filter((r) => 'created' in r)).toHaveLength(1);
      expect(await value(stores[0]!.db, sql`SELECT COUNT(*) AS n FROM cases`)).toBe(2);
      expect(await value(stores[0]!.db, sql`SELECT COUNT(*) AS n FROM events`)).toBe(2 * opened_records());
    });

    it('holds one open case per thread; a closed one leaves the thread free', async () => {
      const store = await open(await fresh());
      expect(await create(store, 'k1', { thread: 't1' })).toEqual({ created: true });
      expect(await create(store, 'k2', { thread: 't1', userId: 'v' })).toEqual({ existing: 'k1', by: 'thread' });
      expect(await create(store, 'k3')).toEqual({ created: true });
      expect(await store.setThread('k3', 't1')).toBe(false);
      expect((await store.get('k3'))!.row.thread).toBeNull();
      expect(await store.caseInThread('discord', 't1')).toBe('k1');

      const { state, seq } = (await store.get('k1'))!;
      const stopped = step(state, { kind: 'action', at: 2000, offer: state.offer, action: 'stop', actor: 'u', moderator: false });
      expect(await store.append('k1', stopped.records, stopped.state!, { seq })).toBe(true);
      expect(await store.caseInThread('discord', 't1')).toBeUndefined();
      expect(await store.setThread('k3', 't1')).toBe(true);
      expect(await store.caseInThread('discord', 't1')).toBe('k3');
    });

    it('the unique indexes stand behind the store even for a writer that skips its checks', async () => {
      const { db } = await open(await fresh());
      const insert = (id: string, source: string | null, thread: string | null) =>
        sql`INSERT INTO cases (id, platform, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, state, source, thread)
          VALUES (${id}, 'discord', 'u', 1, 1, 'c', 'e', 'v', '{}', 'p', '{}', ${source}, ${thread})`.execute(db);
      await insert('k1', 'm1', 't1');
      await expect(insert('k2', 'm1', null)).rejects.toThrow(/UNIQUE|duplicate key/);
      await expect(insert('k3', null, 't1')).rejects.toThrow(/UNIQUE|duplicate key/);
    });
  });

  describe('append checks the last event it was decided from', () => {
    it('refuses the second of two sweeps that both decided to abandon a case', async () => {
      const where = await fresh();
      const a = await open(where);
      const b = await open(where);
      await create(a, 'k1');
      const seenByA = (await a.get('k1'))!;
      const seenByB = (await b.get('k1'))!;
      const tick = { kind: 'tick', at: 10_000_000, idleMs: 1000 } as const;
      const byA = step(seenByA.state, tick);
      const byB = step(seenByB.state, tick);
      expect(await a.append('k1', byA.records, byA.state!, { seq: seenByA.seq })).toBe(true);
      expect(await b.append('k1', byB.records, byB.state!, { seq: seenByB.seq })).toBe(false);
      expect((await a.records('k1')).filter((r) => r.type === 'abandoned')).toHaveLength(1);
    });

    it('lets exactly one of many simultaneous appends decided from the same event through', async () => {
      const where = await fresh();
      const stores = await Promise.all(Array.from({ length: 6 }, () => open(where)));
      await create(stores[0]!, 'k1');
      const seen = (await stores[0]!.get('k1'))!;
      const worked = step(seen.state, { kind: 'action', at: 5000, offer: seen.state.offer, action: 'worked', actor: 'u', moderator: false });
      const results = await Promise.all(stores.map((s) => s.append('k1', worked.records, worked.state!, { seq: seen.seq })));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await stores[0]!.records('k1')).filter((r) => r.type === 'resolved')).toHaveLength(1);
      expect(await all(stores[0]!.db, sql`SELECT offered, fixed FROM step_outcomes WHERE step = 'reduce-workload'`)).toEqual([{ offered: 1, fixed: 1 }]);
    });
  });

  describe('scoped stats', () => {
    it("count one server's cases, archived ones included, and show no other server's error text", async () => {
      const store = await open(await fresh());
      await create(store, 'd1', { server: 'g1', recognized: false, fingerprint: 'same' });
      await create(store, 'd2', { server: 'g2', recognized: false, fingerprint: 'same', userId: 'w' });
      await create(store, 's1', { platform: 'slack', server: 'T1' });
      await create(store, 't1', { platform: 'terminal', server: undefined, userId: 'w' });
      const stats = async (scope = {}) => await computeStats(store.sql, { scope });
      expect((await stats()).cases).toBe(4);
      const g1 = await stats({ platform: 'discord', server: 'g1' });
      expect(g1.cases).toBe(1);
      expect(g1.unrecognized).toEqual([{ fingerprint: 'same', cases: 1, entry: plan.entry, example: 'error of d1', weeks: [{ week: '1969-12-29', cases: 1 }] }]);
      expect(await stats({ platform: 'discord', server: 'g3' })).toMatchObject({ cases: 0, unrecognized: [] });
      expect((await stats({ platform: 'discord' })).cases).toBe(2);
      expect((await stats({ server: 'T1' })).cases).toBe(1);

      // g2's only user is forgotten: its counts stay in g2, and nowhere else.
      await store.forgetUser('w', 'discord');
      const g2 = await stats({ platform: 'discord', server: 'g2' });
      expect(g2).toMatchObject({ cases: 1, steps: [expect.objectContaining({ step: 'reduce-workload', reached: 1 })] });
      expect(g2.unrecognized).toEqual([{ fingerprint: 'same', cases: 1, entry: plan.entry, example: null, weeks: [{ week: '1969-12-29', cases: 1 }] }]);
      expect((await stats({ platform: 'discord', server: 'g1' })).cases).toBe(1);
      expect((await stats()).cases).toBe(4);
    });
  });

  describe('drafts and deliveries', () => {
    it('takes a draft once, and forget deletes drafts with the cases', async () => {
      const store = await open(await fresh());
      await store.saveDraft({ id: 'd1', platform: 'discord', userId: 'u', createdAt: 1, paste: 'log' });
      await store.saveDraft({ id: 'd2', platform: 'discord', userId: 'u', createdAt: 1, paste: 'log' });
      expect(await store.takeDraft('d1', 'discord', 'someone else')).toBeUndefined();
      expect(await store.takeDraft('d1', 'discord', 'u')).toBe('log');
      expect(await store.takeDraft('d1', 'discord', 'u')).toBeUndefined();
      await store.forgetUser('u', 'discord');
      expect(await store.takeDraft('d2', 'discord', 'u')).toBeUndefined();
    });

    it('knows a delivery seen before, across connections, until pruned', async () => {
      const where = await fresh();
      const a = await open(where);
      const b = await open(where);
      expect(await a.firstDelivery('slack', 'Ev1', 1000)).toBe(true);
      expect(await b.firstDelivery('slack', 'Ev1', 1001)).toBe(false);
      await b.prune(1000 + 86_400_001, 86_400_000);
      expect(await a.firstDelivery('slack', 'Ev1', 2000)).toBe(true);
    });
  });
});

/** Records a case is created with: opened, then its first step offered. */
const opened_records = () => opened('x').records.length;

describe('upgrading an SQLite file from before migration 007', () => {
  it('detaches duplicate open cases of one thread when upgrading a database that has them', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'unique-')), 'cases.db');
    const old = openDb(path, { migrateUpTo: 6 });
    const insert = old.prepare("INSERT INTO cases (id, platform, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, state, thread) VALUES (?, 'discord', 'u', 1, ?, 'c', 'e', 'v', '{}', 'p', '{}', 't1')");
    insert.run('older', 1);
    insert.run('newer', 2);
    old.close();
    const db = openDb(path);
    expect(db.prepare('SELECT id, thread FROM cases ORDER BY id').all()).toEqual([
      { id: 'newer', thread: 't1' },
      { id: 'older', thread: null },
    ]);
  });
});
