// The store's rules about cases (migration 007): one case per source, one open case per thread,
// decided in the transaction that creates the case, also across processes and after a restart;
// an append decided from a case that another process has moved on meanwhile is refused; stats and
// their archive are scoped by platform and server.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { step, type PlanRef } from '../../src/conversation/machine.ts';
import { CaseStore, type NewCase } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { computeStats } from '../../src/store/stats.ts';

const tmpDb = () => join(mkdtempSync(join(tmpdir(), 'unique-')), 'cases.db');
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

describe('one case per source and per thread', () => {
  it('opens at most one case per source, also from a second connection (another process, or after a restart)', () => {
    const path = tmpDb();
    const a = new CaseStore(openDb(path));
    const b = new CaseStore(openDb(path));
    expect(create(a, 'k1', { source: 'm1' })).toEqual({ created: true });
    expect(create(b, 'k2', { source: 'm1' })).toEqual({ existing: 'k1', by: 'source' });
    expect(create(b, 'k3', { source: 'm1', platform: 'slack' })).toEqual({ created: true });
    expect(b.fromSource('discord', 'm1')).toBe('k1');
    expect(a.db.prepare('SELECT COUNT(*) FROM cases').pluck().get()).toBe(2);
  });

  it('holds one open case per thread; a closed one leaves the thread free', () => {
    const store = new CaseStore(openDb(tmpDb()));
    expect(create(store, 'k1', { thread: 't1' })).toEqual({ created: true });
    expect(create(store, 'k2', { thread: 't1', userId: 'v' })).toEqual({ existing: 'k1', by: 'thread' });
    expect(create(store, 'k3')).toEqual({ created: true });
    expect(store.setThread('k3', 't1')).toBe(false);
    expect(store.get('k3')!.row.thread).toBeNull();
    expect(store.caseInThread('discord', 't1')).toBe('k1');

    const { state, seq } = store.get('k1')!;
    const stopped = step(state, { kind: 'action', at: 2000, offer: state.offer, action: 'stop', actor: 'u', moderator: false });
    expect(store.append('k1', stopped.records, stopped.state!, { seq })).toBe(true);
    expect(store.caseInThread('discord', 't1')).toBeUndefined();
    expect(store.setThread('k3', 't1')).toBe(true);
    expect(store.caseInThread('discord', 't1')).toBe('k3');
  });

  it('the unique indexes stand behind the store even for a writer that skips its checks', () => {
    const db = openDb(tmpDb());
    const insert = db.prepare("INSERT INTO cases (id, platform, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, state, source, thread) VALUES (?, 'discord', 'u', 1, 1, 'c', 'e', 'v', '{}', 'p', '{}', ?, ?)");
    insert.run('k1', 'm1', 't1');
    expect(() => insert.run('k2', 'm1', null)).toThrow(/UNIQUE/);
    expect(() => insert.run('k3', null, 't1')).toThrow(/UNIQUE/);
  });

  it('detaches duplicate open cases of one thread when upgrading a database that has them', () => {
    const path = tmpDb();
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

describe('append checks the last event it was decided from', () => {
  it('refuses the second of two sweeps that both decided to abandon a case', () => {
    const path = tmpDb();
    const a = new CaseStore(openDb(path));
    const b = new CaseStore(openDb(path));
    create(a, 'k1');
    const seenByA = a.get('k1')!;
    const seenByB = b.get('k1')!;
    const tick = { kind: 'tick', at: 10_000_000, idleMs: 1000 } as const;
    const byA = step(seenByA.state, tick);
    const byB = step(seenByB.state, tick);
    expect(a.append('k1', byA.records, byA.state!, { seq: seenByA.seq })).toBe(true);
    expect(b.append('k1', byB.records, byB.state!, { seq: seenByB.seq })).toBe(false);
    expect(a.records('k1').filter((r) => r.type === 'abandoned')).toHaveLength(1);
  });
});

describe('scoped stats', () => {
  it("count one server's cases, archived ones included, and show no other server's error text", () => {
    const store = new CaseStore(openDb(tmpDb()));
    create(store, 'd1', { server: 'g1', recognized: false, fingerprint: 'same' });
    create(store, 'd2', { server: 'g2', recognized: false, fingerprint: 'same', userId: 'w' });
    create(store, 's1', { platform: 'slack', server: 'T1' });
    create(store, 't1', { platform: 'terminal', server: undefined, userId: 'w' });
    expect(computeStats(store.db).cases).toBe(4);
    const g1 = computeStats(store.db, { scope: { platform: 'discord', server: 'g1' } });
    expect(g1.cases).toBe(1);
    expect(g1.unrecognized).toEqual([{ fingerprint: 'same', cases: 1, entry: plan.entry, example: 'error of d1', weeks: [{ week: '1969-12-29', cases: 1 }] }]);
    expect(computeStats(store.db, { scope: { platform: 'discord', server: 'g3' } })).toMatchObject({ cases: 0, unrecognized: [] });
    expect(computeStats(store.db, { scope: { platform: 'discord' } }).cases).toBe(2);
    expect(computeStats(store.db, { scope: { server: 'T1' } }).cases).toBe(1);

    // g2's only user is forgotten: its counts stay in g2, and nowhere else.
    store.forgetUser('w', 'discord');
    const g2 = computeStats(store.db, { scope: { platform: 'discord', server: 'g2' } });
    expect(g2).toMatchObject({ cases: 1, steps: [expect.objectContaining({ step: 'reduce-workload', reached: 1 })] });
    expect(g2.unrecognized).toEqual([{ fingerprint: 'same', cases: 1, entry: plan.entry, example: null, weeks: [{ week: '1969-12-29', cases: 1 }] }]);
    expect(computeStats(store.db, { scope: { platform: 'discord', server: 'g1' } }).cases).toBe(1);
    expect(computeStats(store.db).cases).toBe(4);
  });
});

describe('drafts and deliveries', () => {
  it('takes a draft once, and forget deletes drafts with the cases', () => {
    const store = new CaseStore(openDb(tmpDb()));
    store.saveDraft({ id: 'd1', platform: 'discord', userId: 'u', createdAt: 1, paste: 'log' });
    store.saveDraft({ id: 'd2', platform: 'discord', userId: 'u', createdAt: 1, paste: 'log' });
    expect(store.takeDraft('d1', 'discord', 'someone else')).toBeUndefined();
    expect(store.takeDraft('d1', 'discord', 'u')).toBe('log');
    expect(store.takeDraft('d1', 'discord', 'u')).toBeUndefined();
    store.forgetUser('u', 'discord');
    expect(store.takeDraft('d2', 'discord', 'u')).toBeUndefined();
  });

  it('knows a delivery seen before, across connections, until pruned', () => {
    const path = tmpDb();
    const a = new CaseStore(openDb(path));
    const b = new CaseStore(openDb(path));
    expect(a.firstDelivery('slack', 'Ev1', 1000)).toBe(true);
    expect(b.firstDelivery('slack', 'Ev1', 1001)).toBe(false);
    b.prune(1000 + 86_400_001, 86_400_000);
    expect(a.firstDelivery('slack', 'Ev1', 2000)).toBe(true);
  });
});
