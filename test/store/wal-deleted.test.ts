// Someone deletes cases.db-wal while a bot has the database open. The bot's connection would go on
// writing into the deleted file (lost at its next crash) while other processes start a new log
// beside the same index, failing with "disk I/O error". The bot notices before its next write,
// saves what it wrote into the database file, opens it again and says so; other processes say the
// log was deleted, not that the disk may be failing; a crash afterwards loses nothing.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';

const worker = fileURLToPath(new URL('./worker.ts', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/comfyoom.mjs', import.meta.url));

it.skipIf(process.platform === 'win32')('a deleted write-ahead log is noticed and said, and a crash after it loses no case', { timeout: 60_000 }, async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'wal-')), 'cases.db');
  openDb(path).close();
  const bot = spawn(process.execPath, ['--import', 'tsx', worker, 'cases', path], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: bot.stdout })[Symbol.asyncIterator]();
  const said = async () => String((await lines.next()).value);
  const store = async (id: string) => {
    bot.stdin.write(`write ${id}\n`);
    return said();
  };
  try {
    expect(await said()).toBe('ready');
    expect(await store('before')).toBe('stored before');

    rmSync(`${path}-wal`);
    // Another process (a stats run) finds the index but no log.
    const stats = spawnSync(process.execPath, [bin, 'stats', '--db', path], { encoding: 'utf8', timeout: 30_000 });
    expect(stats.status).toBe(1);
    expect(stats.stderr).toMatch(/the write-ahead log .*cases\.db-wal was deleted while ComfyOOM had the database open/);
    expect(stats.stderr).not.toMatch(/disk may be full/);

    // The bot's next write is refused with the reason; the one after goes into a log on disk.
    expect(await store('during')).toMatch(/^refused during: the write-ahead log .*cases\.db-wal was deleted while ComfyOOM had the database open/);
    expect(await store('after')).toBe('stored after');
  } finally {
    bot.kill('SIGKILL');
  }
  await new Promise((r) => bot.once('exit', r));

  const sql = sqliteSql(openDb(path));
  const ids = (await sql.db.selectFrom('cases').select('id').orderBy('id').execute()).map((r) => r.id);
  expect(ids).toEqual(['after', 'before']);
  expect(await new CaseStore(sql).records('before')).not.toEqual([]);
  await sql.close();
});
