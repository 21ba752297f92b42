// The real CLI in a child process, as users and the corpus scorer run it.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, copyFileSync, mkdtempSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb, readMigrations } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { playCase, rng, storeCase } from '../store/simulate.ts';
import { kb } from '../helpers/kb.ts';
import { CTRL_D, line, runOnPty } from '../helpers/pty.ts';

const bin = fileURLToPath(new URL('../../bin/comfyoom.mjs', import.meta.url));
const run = (args: string[], input?: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
const tmp = mkdtempSync(join(tmpdir(), 'cli-'));
const file = (name: string, content: string | Buffer) => {
  const p = join(tmp, name);
  writeFileSync(p, content);
  return p;
};

describe('comfyoom CLI', () => {
  it.each(['diagnose', 'chat', 'start', 'stats', 'kb', 'order', 'relabel', 'forget'])('answers "%s --help" with its own usage and exit 0', (command) => {
    const r = run([command, '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage:\\n  comfyoom ${command}\\b`));
    expect(r.stdout).toMatch(/Everything: comfyoom --help/);
  });

  it('on a terminal, diagnose with no file says how to end a paste, then diagnoses what was pasted', async () => {
    const r = await runOnPty([process.execPath, bin, 'diagnose'], [line('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'), CTRL_D]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^Paste the error or console log, then press Ctrl\+D/);
    expect(r.out).toMatch(/Diagnosis: Out of GPU memory/);
  });

  it('prints help', () => {
    const r = run(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/comfyoom diagnose/);
  });

  it('diagnoses a file into a readable plan, in the language of the paste', () => {
    const r = run(['diagnose', file('ksampler.txt', sample('cf-0214').text)]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Diagnosis: Out of GPU memory while sampling/);
    expect(r.stdout).not.toMatch(/oom_gpu_sampling|confidence/);
    expect(r.stdout).toMatch(/1\. /);
    const zh = run(['diagnose', '-'], sample('cf-0211').text);
    expect(zh.stdout).toMatch(/诊断/);
  });

  it('answers JSON with the facts and the tailored plan', () => {
    const r = run(['diagnose', '--json', '-'], sample('cf-0016').text);
    const d = JSON.parse(r.stdout);
    expect(d).toMatchObject({ category: 'oom_amd_hip', facts: { oom: 'hip', requestedGb: 2.25 } });
    expect(d.steps.length).toBeGreaterThan(0);
  });

  it('runs a batch in one process and reports bad lines without stopping', () => {
    const batch = file('in.jsonl', [
      JSON.stringify({ id: 'a', text: sample('cf-0009').text }),
      'not json',
      JSON.stringify({ id: 'b' }),
      JSON.stringify({ id: 'c', text: 'mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)' }),
    ].join('\n'));
    const r = run(['diagnose', '--batch', batch]);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(4);
    expect(out[0]).toMatchObject({ id: 'a', category: 'oom_gpu_vae' });
    expect(Object.keys(out[0])).toEqual(['id', 'category', 'entry', 'confidence', 'facts']);
    expect(out[1]).toMatchObject({ id: null, error: 'not valid JSON' });
    expect(out[2]).toMatchObject({ id: 'b', error: expect.stringMatching(/text/) });
    expect(out[3]).toMatchObject({ id: 'c', category: 'not_oom', entry: 'shape-mismatch' });
    expect(r.status).toBe(1);
  });

  it('reads batch lines ended by \\n, \\r\\n or a lone \\r, numbering them as a text editor does', () => {
    const ok = (id: string) => JSON.stringify({ id, text: 'torch.OutOfMemoryError: CUDA out of memory.' });
    // 1 a, 2 blank, 3 b, 4 not JSON, 5 c without a final line break, each kind of break between.
    const r = run(['diagnose', '--batch', '-'], `${ok('a')}\r\n\r\n${ok('b')}\rnot json\n${ok('c')}`);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out.map((o) => o.id ?? `error at ${o.line}`)).toEqual(['a', 'b', 'error at 4', 'c']);
    expect(out.filter((o) => o.category).every((o) => o.category === 'oom_gpu_other')).toBe(true);
  });

  it('answers each batch line from a pipe as soon as it is read, before stdin ends', async () => {
    const child = spawn(process.execPath, [bin, 'diagnose', '--batch', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const answered = async (id: string) => {
        await expect.poll(() => out.split('\n').some((l) => l.startsWith(`{"id":"${id}"`)), { timeout: 20_000 }).toBe(true);
        return JSON.parse(out.split('\n').find((l) => l.startsWith(`{"id":"${id}"`))!);
      };
      child.stdin.write(`${JSON.stringify({ id: 'a', text: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB' })}\n`);
      expect(await answered('a')).toMatchObject({ category: 'oom_gpu_other' });
      child.stdin.write(`${JSON.stringify({ id: 'b', text: 'mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)' })}\n`);
      expect(await answered('b')).toMatchObject({ entry: 'shape-mismatch' });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.stdin.end();
      expect(await exited).toBe(0);
    } finally {
      child.kill();
    }
  }, 60_000);

  it('refuses a binary file and an unknown language with a clear message', () => {
    const bad = run(['diagnose', file('shot.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]))]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/binary file/);
    expect(run(['diagnose', '--lang', 'fr', '-'], 'x').stderr).toMatch(/--lang must be one of en, zh, zh-Hant, ja, ko/);
    expect(run(['diagnose', join(tmp, 'missing.txt')]).status).toBe(2);
  });

  it('lints the kb and fails with file, field and reason on a broken one', () => {
    expect(run(['kb', 'lint']).stdout).toMatch(/^kb ok/);
    const broken = mkdtempSync(join(tmpdir(), 'kb-'));
    const r = run(['kb', 'lint'], undefined, { COMFYOOM_KB: broken });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/entries: \(folder\): missing/);
  });

  it('takes "that\'s not my problem" typed in the terminal, and relabels the case from the command line', () => {
    const db = join(tmp, 'doubted.db');
    const ram = onNvidia('RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to allocate 11796480000 bytes.');
    const chat = run(['chat', '--db', db], `${onNvidia(sample('cf-0214').text).split('\n').filter((l) => l.trim()).join('\n')}\n\nthat's not my problem\n${ram}\n\ny\n`);
    // The diagnosis's own buttons are words to type, not numbers that clash with the step's.
    expect(chat.stdout).toContain('(“That\'s not my problem” · “Show current step”)');
    expect(chat.stdout).toMatch(/Sorry, I read your log wrong/);
    expect(chat.stdout).toMatch(/From this log, the diagnosis is/);
    const stats = JSON.parse(run(['stats', '--json', '--db', db]).stdout);
    expect(stats.misdiagnosed).toMatchObject({ cases: 1, byEntry: [{ entry: 'gpu-oom-sampling', cases: 1 }], recent: [{ doubted: 'gpu-oom-sampling', now: 'ram-oom' }] });
    const caseId = stats.misdiagnosed.recent[0].caseId;

    const typo = run(['relabel', caseId, 'ram', '--db', db]);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toMatch(/no kb entry "ram".*ram-oom/);
    const done = run(['relabel', caseId, 'ram-oom', '--by', 'mod', '--db', db]);
    expect(done.status).toBe(0);
    expect(done.stdout).toMatch(/now counts as "Out of system RAM/);
    expect(JSON.parse(run(['stats', '--json', '--db', db]).stdout).entries.map((e: { entry: string }) => e.entry)).toEqual(['ram-oom']);
  });

  it('reports stats and forgets a user, on the database given by --db', () => {
    const db = join(tmp, 'cases.db');
    run(['chat', '--db', db], `${onNvidia(sample('cf-0214').text).split('\n').filter((l) => l.trim()).join('\n')}\n\ny\n`);
    const stats = JSON.parse(run(['stats', '--json', '--since', '30d', '--db', db]).stdout);
    expect(stats).toMatchObject({ cases: 1, shares: { resolvedConfirmed: 1 } });
    const entry = kb.entries.find((e) => e.id === stats.entries[0].entry)!;
    const glance = run(['stats', '--db', db]).stdout;
    expect(glance).toMatch(/Cases: 1/);
    // Titles, each step with its fix rate; the ids with --all; Chinese with --lang zh.
    expect(glance).toContain(`      1  ${entry.title.en}: 1 / 0 / 0 / 0`);
    expect(glance).toMatch(/ — fixed 1 of 1 tried \(100%\), offered 1\n/);
    expect(glance).not.toContain(entry.id);
    expect(glance).toMatch(/Everything: comfyoom stats --all\n$/);
    expect(run(['stats', '--all', '--db', db]).stdout).toContain(`      1  ${entry.title.en} (${entry.id}) [${entry.category}]: 1 / 0 / 0 / 0`);
    expect(run(['stats', '--lang', 'zh', '--db', db]).stdout).toMatch(new RegExp(`^问题数：1\n[^]*\n {6}1 {2}${entry.title.zh.replace(/[()（）]/g, '.')}：1 / 0 / 0 / 0\n {11}.+ — 试过 1 次，解决 1 次（100%），共提供 1 次\n`));
    expect(run(['stats', '--platform', 'terminal', '--db', db]).stdout).toMatch(/^Cases: 1 on terminal/);
    expect(JSON.parse(run(['stats', '--json', '--platform', 'discord', '--db', db]).stdout)).toMatchObject({ cases: 0, scope: { platform: 'discord' } });
    expect(JSON.parse(run(['stats', '--json', '--server', 'G1', '--db', db]).stdout).cases).toBe(0);
    expect(run(['stats', '--since', 'last week', '--db', db]).stderr).toMatch(/--since takes/);
    expect(JSON.parse(run(['stats', '--json', '--since', '2w', '--db', db]).stdout)).toMatchObject({ cases: 1 });
    expect(run(['forget', '--user', `local:${userInfo().username}`, '--db', db]).stdout).toMatch(/deleted 1 case/);
    // The case is gone from the file; stats keep counting it, anonymously.
    expect(JSON.parse(run(['stats', '--json', '--db', db]).stdout)).toMatchObject({ cases: 1, shares: { resolvedConfirmed: 1 } });
    expect(run(['forget', '--user', `local:${userInfo().username}`, '--db', db]).stdout).toMatch(/deleted 0 cases/);
  });
});

/** A database with a few cases, written in this process through the store. */
async function database(name: string): Promise<string> {
  const path = join(tmp, name);
  const store = new CaseStore(sqliteSql(openDb(path)));
  const r = rng(3);
  for (let i = 0; i < 20; i++) await storeCase(store, { id: `k${i}`, platform: 'discord', userId: `u${i % 4}`, createdAt: Date.now(), facts: {}, paste: sample('cf-0214').text }, playCase(r, `k${i}`, `u${i % 4}`, Date.now()));
  await store.sql.close();
  return path;
}

/** What a database problem must look like: one line naming the file, no stack trace, exit code 1. */
function refused(r: ReturnType<typeof run>, path: string, says: RegExp): void {
  expect(r.status, r.stderr).toBe(1);
  expect(r.stderr).toMatch(says);
  expect(r.stderr).toContain(path);
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
}

describe('comfyoom CLI on a broken database', () => {
  it('names a path it cannot open, and a folder given as the database', () => {
    const notAFolder = join(file('plain.txt', 'x'), 'cases.db');
    refused(run(['chat', '--db', notAFolder], ''), notAFolder, /^comfyoom: cannot open the database .*: its folder must exist or be creatable/);
    refused(run(['stats', '--db', notAFolder]), notAFolder, /there is no case database at .* yet/);
    refused(run(['stats', '--db', tmp]), tmp, /is a folder, not a database file: give a file's path with --db or COMFYOOM_DB/);
  });

  it('refuses a file that is not a database, and one with corrupted pages', async () => {
    const random = file('random.db', randomBytes(16_384));
    refused(run(['chat', '--db', random], ''), random, /is not a ComfyOOM database \(it is not an SQLite file at all\)/);
    refused(run(['stats', '--db', random]), random, /is not a ComfyOOM database/);

    const damaged = await database('damaged.db');
    const db = openDb(damaged);
    const pages = db.prepare("SELECT pageno FROM dbstat WHERE name NOT IN ('sqlite_schema', 'schema_migrations')").pluck().all() as number[];
    const size = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const fd = openSync(damaged, 'r+');
    for (const p of pages) writeSync(fd, randomBytes(size), 0, size, (p - 1) * size);
    closeSync(fd);
    refused(run(['stats', '--db', damaged]), damaged, /is damaged \(corrupted pages\): restore it from a backup/);
  });

  it.skipIf(process.platform === 'win32')('says the disk is full when a write cannot be made', async () => {
    const path = await database('full.db');
    const big = `${onNvidia(sample('cf-0214').text)}\n`.repeat(40);
    // A file-size limit makes every write past 48 KB fail, as a full disk does: the new case cannot be stored.
    const r = spawnSync('sh', ['-c', `ulimit -f 96 && exec "${process.execPath}" "${bin}" chat --db "${path}"`], { input: `${big}\n`, encoding: 'utf8', timeout: 60_000 });
    refused(r, path, /the disk may be full or failing; free some space or check the disk/);
  });

  it('refuses a database made by a newer ComfyOOM, by name', async () => {
    const path = await database('newer.db');
    const db = openDb(path);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_future.sql', 0)").run();
    db.close();
    const newest = readMigrations().at(-1)!.version;
    for (const args of [['chat', '--db', path], ['stats', '--db', path]]) {
      refused(run(args, ''), path, new RegExp(`was made by a newer ComfyOOM \\(schema version 999; this one knows up to ${newest}\\): update ComfyOOM`));
    }
  });

  it.skipIf(process.platform === 'win32')('reads a read-only database for stats and diagnose, and says why it cannot write it', async () => {
    // Root writes anyway, so the commands run as nobody there.
    const as = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const runAs = (args: string[], env: Record<string, string> = {}) => spawnSync(process.execPath, [bin, ...args], { input: '', encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000, ...as });
    const dir = mkdtempSync(join(tmpdir(), 'ro-'));
    chmodSync(dir, 0o777);
    const path = join(dir, 'cases.db');
    copyFileSync(await database('writable.db'), path);
    chmodSync(path, 0o444);
    expect(JSON.parse(runAs(['stats', '--json', '--db', path]).stdout).cases).toBe(20);
    const log = join(dir, 'error.log');
    writeFileSync(log, sample('cf-0214').text);
    expect(runAs(['diagnose', log], { COMFYOOM_DB: path }).status).toBe(0);
    refused(runAs(['chat', '--db', path]), path, /the database .* is read-only: make the file and its folder writable for this user/);

    const old = join(dir, 'old.db');
    openDb(old, { migrateUpTo: 3 }).close();
    chmodSync(old, 0o444);
    refused(runAs(['stats', '--db', old]), old, /was made by an older ComfyOOM and must be upgraded before it can be read, but it is read-only/);
  });

  it('says a folder given as a log, or a missing log, is a usage error', () => {
    const folder = run(['diagnose', tmp]);
    expect(folder.status).toBe(2);
    expect(folder.stderr).toBe(`comfyoom: ${tmp} is a folder, not a log file: give the log file itself.\n`);
    const missing = join(tmp, 'missing.log');
    expect(run(['chat', missing])).toMatchObject({ status: 2, stderr: `comfyoom: ${missing}: no such file\n` });
  });
});
