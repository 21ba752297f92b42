// The real CLI in a child process, as users and the corpus scorer run it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';

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
  it('prints help', () => {
    const r = run(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/comfyoom diagnose/);
  });

  it('diagnoses a file into a readable plan, in the language of the paste', () => {
    const r = run(['diagnose', file('ksampler.txt', sample('cf-0214').text)]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/oom_gpu_sampling/);
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

  it('refuses a binary file and an unknown language with a clear message', () => {
    const bad = run(['diagnose', file('shot.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]))]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/binary file/);
    expect(run(['diagnose', '--lang', 'fr', '-'], 'x').stderr).toMatch(/--lang must be en or zh/);
    expect(run(['diagnose', join(tmp, 'missing.txt')]).status).toBe(2);
  });

  it('lints the kb and fails with file, field and reason on a broken one', () => {
    expect(run(['kb', 'lint']).stdout).toMatch(/^kb ok/);
    const broken = mkdtempSync(join(tmpdir(), 'kb-'));
    const r = run(['kb', 'lint'], undefined, { COMFYOOM_KB: broken });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/entries: \(folder\): missing/);
  });

  it('reports stats and forgets a user, on the database given by --db', () => {
    const db = join(tmp, 'cases.db');
    run(['chat', '--db', db], `${onNvidia(sample('cf-0214').text).split('\n').filter((l) => l.trim()).join('\n')}\n\ny\n`);
    const stats = JSON.parse(run(['stats', '--json', '--since', '30d', '--db', db]).stdout);
    expect(stats).toMatchObject({ cases: 1, shares: { resolvedConfirmed: 1 } });
    expect(run(['stats', '--db', db]).stdout).toMatch(/Cases: 1/);
    expect(run(['stats', '--since', 'last week', '--db', db]).stderr).toMatch(/--since takes/);
    expect(run(['forget', '--user', `local:${userInfo().username}`, '--db', db]).stdout).toMatch(/deleted 1 case/);
    expect(JSON.parse(run(['stats', '--json', '--db', db]).stdout).cases).toBe(0);
  });
});
