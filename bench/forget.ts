// Forget bench (`npm run bench -- forget`): how long another writer (a bot answering someone) waits
// for the write lock while forget scrubs a large database. The baseline, run in the same process on
// a copy of the same file, is what forget did before: one VACUUM and a TRUNCATE checkpoint. The
// writer is a separate process taking the write lock every 5 ms; its longest wait is the longest
// the scrub held the lock. Both runs must leave no byte of the forgotten users in the file.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { wipeFile } from '../src/store/cases.ts';
import { openDb } from '../src/store/db.ts';
import { type BenchResult, MB, table } from './lib/measure.ts';

const CASES = 60_000;
const USERS = 5_000;
/** The longest another writer may wait for the scrub. */
const TARGET_MS = 1_000;

/** Cases, events and steps written straight into the schema: only their sizes and shapes matter here. */
function generate(file: string): void {
  openDb(file).close();
  const db = new Database(file);
  db.pragma('synchronous = OFF');
  const insCase = db.prepare(
    `INSERT INTO cases (id, platform, server, channel, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, status, state) VALUES (?, 'discord', 'g', 'c', ?, ?, ?, 'oom_gpu_sampling', 'gpu-oom-sampling', 'v', '{}', ?, 'resolved', ?)`,
  );
  const insEvent = db.prepare(`INSERT INTO events (case_id, seq, at, type, step, data) VALUES (?, ?, ?, 'answered', 's', ?)`);
  const insStep = db.prepare(`INSERT INTO case_steps (case_id, step, created_at, tried, moved_on) VALUES (?, ?, ?, 1, 0)`);
  const pad = 'x'.repeat(2000);
  db.transaction(() => {
    for (let i = 0; i < CASES; i++) {
      const id = `c${i.toString(36)}`;
      insCase.run(id, `user${i % USERS}`, 1e12 + i, 1e12 + i, `paste of user${i % USERS}-case${i} ${pad}`, JSON.stringify({ s: 'y'.repeat(300) }));
      for (let s = 1; s <= 10; s++) insEvent.run(id, s, 1e12 + i, JSON.stringify({ type: 'answered', step: `s${s}`, pad: 'z'.repeat(100) }));
      for (let s = 1; s <= 4; s++) insStep.run(id, `step${s}`, 1e12 + i);
    }
  })();
  db.close();
}

/** A writer in its own process: its longest wait for the write lock until told to stop. */
async function longestWriterWait(file: string, work: () => Promise<unknown>): Promise<{ maxMs: number; writes: number; totalMs: number }> {
  const script = `const db = require('better-sqlite3')(process.argv[1], { timeout: 120000 });
    let max = 0, n = 0, stop = false;
    process.stdin.once('data', () => (stop = true));
    console.log('ready');
    (function loop() {
      if (stop) { console.log(JSON.stringify({ max, n })); db.close(); process.exit(0); }
      const t0 = performance.now(); db.exec('BEGIN IMMEDIATE'); db.exec('COMMIT'); max = Math.max(max, performance.now() - t0); n++;
      setTimeout(loop, 5);
    })();`;
  const writer = spawn(process.execPath, ['-e', script, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  writer.stdout.on('data', (d) => (out += d));
  await new Promise<void>((resolve) => writer.stdout.once('data', () => resolve()));
  const t0 = performance.now();
  await work();
  const totalMs = performance.now() - t0;
  const exited = new Promise((r) => writer.once('exit', r));
  writer.stdin.write('stop\n');
  await exited;
  const said = JSON.parse(out.split('\n').filter(Boolean).at(-1)!) as { max: number; n: number };
  return { maxMs: said.max, writes: said.n, totalMs };
}

/** Forgets two users on a copy of `source` by `scrub`; whether any byte of them is left. */
async function forgetOn(source: string, copy: string, scrub: (file: string) => Promise<unknown>) {
  for (const f of [copy, `${copy}-wal`, `${copy}-shm`]) rmSync(f, { force: true });
  copyFileSync(source, copy);
  const db = openDb(copy);
  db.prepare("DELETE FROM cases WHERE user_id IN ('user7', 'user8')").run();
  db.close();
  const waits = await longestWriterWait(copy, () => scrub(copy));
  const bytes = [copy, `${copy}-wal`].filter(existsSync).map((p) => readFileSync(p));
  const left = ['user7-case', 'user8-case'].filter((s) => bytes.some((b) => b.includes(s)));
  return { ...waits, left };
}

async function vacuum(file: string): Promise<void> {
  const db = openDb(file);
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

export async function benchForget(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'comfyoom-forget-'));
  try {
    const source = join(dir, 'source.db');
    generate(source);
    const size = statSync(source).size;
    console.log(`\nforget: ${CASES.toLocaleString('en')} cases, ${(size / MB).toFixed(0)} MB; another process writes every 5 ms meanwhile`);
    const baseline = await forgetOn(source, join(dir, 'vacuum.db'), vacuum);
    const scrub = await forgetOn(source, join(dir, 'scrub.db'), wipeFile);
    const row = (name: string, r: typeof scrub) => [name, `${r.maxMs.toFixed(0)} ms`, `${(r.totalMs / 1000).toFixed(1)} s`, String(r.writes), r.left.length ? `left ${r.left.join(', ')}` : 'none'];
    console.log(table(['how', 'longest writer wait', 'total', 'writes meanwhile', 'bytes of the forgotten users'], [row('VACUUM (baseline)', baseline), row('scrub', scrub)]));
    const ratio = scrub.maxMs / baseline.maxMs;
    console.log(`longest writer wait: scrub / VACUUM = ${ratio.toFixed(2)}`);
    const failures = [
      ...(scrub.maxMs > TARGET_MS ? [`another writer waited ${scrub.maxMs.toFixed(0)} ms for the scrub (target ${TARGET_MS} ms)`] : []),
      ...(ratio >= 1 ? [`the scrub held the lock as long as VACUUM (ratio ${ratio.toFixed(2)})`] : []),
      ...(scrub.left.length ? [`the scrub left ${scrub.left.join(', ')}`] : []),
    ];
    for (const f of failures) console.log(`FAIL forget: ${f}`);
    return {
      name: 'forget',
      failures,
      summary: { bench: 'forget', ok: !failures.length, cases: CASES, mb: Math.round(size / MB), vacuumMaxWaitMs: Math.round(baseline.maxMs), scrubMaxWaitMs: Math.round(scrub.maxMs), ratio: Math.round(ratio * 100) / 100, scrubTotalS: Math.round(scrub.totalMs / 100) / 10 },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
