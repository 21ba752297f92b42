// Several real processes on one database file, as a busy deployment runs them: terminal chats,
// stats, forget and writers side by side, and many processes opening a new or an older database
// at the same moment (shards starting together). No process may fail, every case must be
// complete, and the file must pass SQLite's integrity check.
import { spawn } from 'node:child_process';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/conversation/machine.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb, readMigrations } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { playCase, rng, storeCase } from './simulate.ts';

const bin = fileURLToPath(new URL('../../bin/comfyoom.mjs', import.meta.url));
const worker = fileURLToPath(new URL('./worker.ts', import.meta.url));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function launch(args: string[], input = '') {
  const child = spawn(process.execPath, args, { env: { ...process.env, COMFYOOM_DB: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (stdout.startsWith('ready\n')) ready();
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(input);
  const done = new Promise<Ran>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { ready: isReady, done };
}

const inWorker = (...args: string[]) => launch(['--import', 'tsx', worker, ...args]);

/** Starts the workers together, once all of them are up. */
async function go(workers: { ready: Promise<void> }[], file: string): Promise<void> {
  await Promise.all(workers.map((w) => w.ready));
  writeFileSync(`${file}.tmp`, String(Date.now() + 20));
  renameSync(`${file}.tmp`, file);
}

const allOk = (runs: Ran[]) => {
  for (const r of runs) expect(r.code, r.stderr).toBe(0);
};

function checkIntegrity(path: string): void {
  const db = openDb(path, { readonly: true });
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  db.close();
}

describe('many processes on one database', () => {
  it('opens a new and an older database from many processes at once, applying each migration once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'race-'));
    const versions = readMigrations().map((m) => m.version);
    const fresh = Array.from({ length: 6 }, (_, k) => join(dir, `new-${k}.db`));
    const older = versions.slice(0, -1).map((v) => {
      const path = join(dir, `at-${v}.db`);
      const db = openDb(path, { migrateUpTo: v });
      db.prepare("INSERT INTO cases (id, platform, user_id, created_at, updated_at, category, entry, kb_version, facts, paste, state) VALUES ('k1', 'terminal', 'u', 1, 1, 'oom_gpu_vae', 'gpu-oom-vae', 'v', '{}', 'p', '{}')").run();
      db.close();
      return path;
    });
    const goFile = join(dir, 'go');
    const workers = Array.from({ length: 5 }, () => inWorker('open', goFile, '25', ...fresh, ...older));
    await go(workers, goFile);
    allOk(await Promise.all(workers.map((w) => w.done)));

    for (const path of [...fresh, ...older]) {
      const db = openDb(path, { readonly: true });
      expect(db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all(), path).toEqual(versions);
      if (older.includes(path)) expect(db.prepare("SELECT entry FROM cases WHERE id = 'k1'").pluck().get()).toBe('gpu-oom-vae');
      db.close();
      checkIntegrity(path);
    }
  }, 60_000);

  it('runs chats, stats, forget and writers side by side without losing an answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'busy-'));
    const path = join(dir, 'cases.db');
    const seed = new CaseStore(sqliteSql(openDb(path)));
    const r = rng(7);
    for (let i = 0; i < 3; i++) await storeCase(seed, { id: `ghost-${i}`, platform: 'discord', userId: 'ghost', createdAt: Date.now(), facts: {}, paste: 'ghost paste' }, playCase(r, `ghost-${i}`, 'ghost', Date.now()));
    await seed.sql.close();

    const goFile = join(dir, 'go');
    const stopFile = join(dir, 'stop');
    const writers = ['alpha', 'bravo'].map((tag) => inWorker('write', goFile, stopFile, path, tag));
    await go(writers, goFile);
    // Each chat opens cases one after another: a failed step, why (the same error), then stop.
    const CASES = 6;
    const paste = `${onNvidia(sample('cf-0214').text).split('\n').filter((l) => l.trim()).join('\n')}\n\n`;
    const chats = [1, 2].map(() => launch([bin, 'chat', '--db', path], `${paste}n\nsame\nstop\n`.repeat(CASES)));
    const forget = launch([bin, 'forget', '--user', 'ghost', '--db', path]);
    let running = true;
    const others = Promise.all([...chats, forget].map((c) => c.done)).finally(() => (running = false));
    const statsRuns = (async () => {
      const runs: Ran[] = [];
      do runs.push(await launch([bin, 'stats', '--json', '--db', path]).done);
      while (running);
      return runs;
    })();
    const ran = await others;
    writeFileSync(stopFile, '');
    const wrote = await Promise.all(writers.map((w) => w.done));
    const stats = await statsRuns;

    allOk([...ran, ...wrote, ...stats]);
    for (const s of stats) expect(JSON.parse(s.stdout).cases).toBeGreaterThan(0);
    expect(ran.at(-1)!.stdout).toMatch(/^deleted 3 cases of user ghost/);

    const db = openDb(path);
    const store = new CaseStore(sqliteSql(db));
    const ids = (where: string) => db.prepare(`SELECT id FROM cases WHERE ${where}`).pluck().all() as string[];
    // Every case is whole: its stored state is exactly what its stored events add up to.
    for (const id of ids('1')) expect(replay(await store.records(id)), id).toEqual((await store.get(id))!.state);
    const chatCases = ids("platform = 'terminal'");
    expect(chatCases).toHaveLength(2 * CASES);
    for (const id of chatCases) {
      expect((await store.get(id))!.row.status).toBe('cancelled');
      expect((await store.records(id)).map((x) => x.type)).toEqual(['opened', 'offered', 'asked_reason', 'answered', 'offered', 'cancelled']);
    }
    for (const [i, tag] of ['alpha', 'bravo'].entries()) {
      const n = Number(/wrote (\d+)/.exec(wrote[i]!.stdout)![1]);
      expect(n).toBeGreaterThan(0);
      expect(ids(`user_id = '${tag}'`)).toHaveLength(n);
    }
    expect(ids("user_id = 'ghost'")).toEqual([]);
    db.close();
    checkIntegrity(path);
  }, 60_000);
});
