// Terminal mode in a real child process: scripted answers, and a SIGKILL in the middle of a case.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sample } from '../helpers/corpus.ts';

const bin = fileURLToPath(new URL('../../bin/comfyoom.mjs', import.meta.url));
const paste = (id: string) => sample(id).text.split('\n').filter((l) => l.trim()).join('\n') + '\n\n';
const newDb = () => join(mkdtempSync(join(tmpdir(), 'term-')), 'cases.db');
const env = { ...process.env, COMFYOOM_DB: '' };

function onlyCase(dbPath: string) {
  const db = openDb(dbPath);
  const store = new CaseStore(db);
  const id = db.prepare('SELECT id FROM cases').pluck().get() as string;
  const result = { ...store.get(id)!, records: store.records(id) };
  db.close();
  return result;
}

describe('terminal mode', () => {
  it('runs a whole scripted conversation from piped answers', () => {
    const db = newDb();
    const input = `${paste('cf-0214')}n\nsame\nskip\ny\n`;
    const r = spawnSync(process.execPath, [bin, 'chat', '--db', db], { input, encoding: 'utf8', env, timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Step 1 of/);
    expect(r.stdout).toMatch(/What happened when you tried it/);
    expect(r.stdout).toMatch(/Step 3 of/);
    expect(r.stdout).toMatch(/fixed by/);
    const c = onlyCase(db);
    expect(c.row).toMatchObject({ platform: 'terminal', status: 'resolved', resolution: 'confirmed' });
    expect(c.records.filter((x) => x.type === 'answered').map((x) => (x as { answer: string }).answer)).toEqual(['failed', 'skipped', 'worked']);
  });

  it('reads the first paste from a file with `chat FILE`', () => {
    const db = newDb();
    const file = join(mkdtempSync(join(tmpdir(), 'paste-')), 'error.log');
    spawnSync('sh', ['-c', `cat > "${file}"`], { input: sample('cf-0009').text });
    const r = spawnSync(process.execPath, [bin, 'chat', file, '--db', db], { input: 'stop\n', encoding: 'utf8', env, timeout: 60_000 });
    expect(r.stdout).toMatch(/VAE/);
    expect(onlyCase(db).row.status).toBe('cancelled');
  });

  it('keeps every answer when killed mid-conversation, and resumes at the same step', async () => {
    const db = newDb();
    const child = spawn(process.execPath, [bin, 'chat', '--db', db], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const waitFor = (re: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (re.test(out)) {
            clearInterval(timer);
            resolve();
          }
        }, 20);
        setTimeout(() => {
          clearInterval(timer);
          reject(new Error(`timed out waiting for ${re}; got:\n${out}`));
        }, 30_000);
      });
    child.stdin.write(paste('cf-0214'));
    await waitFor(/Step 1 of/);
    child.stdin.write('n\n');
    await waitFor(/What happened when you tried it/);
    child.stdin.write('same\n');
    await waitFor(/Step 2 of/);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const killed = onlyCase(db);
    expect(killed.row.status).toBe('open');
    expect(killed.state.index).toBe(1);
    expect(killed.records.map((r) => r.type)).toEqual(['opened', 'offered', 'asked_reason', 'answered', 'offered']);

    const resumed = spawnSync(process.execPath, [bin, 'chat', '--resume', '--db', db], { input: 'skip\n', encoding: 'utf8', env, timeout: 60_000 });
    expect(resumed.stdout).toMatch(/Step 2 of/);
    expect(resumed.stdout).toMatch(/Step 3 of/);
    const after = onlyCase(db);
    expect(after.state.index).toBe(2);
    expect(after.records.filter((r) => r.type === 'answered')).toHaveLength(2);
  });
});
