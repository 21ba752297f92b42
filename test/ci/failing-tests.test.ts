// A failing test must fail the run, in each of vitest's projects: the main one's PostgreSQL helper
// once loaded a dependency whose exit hook turned every failed run into exit 0, and CI passed on
// failures. Each probe is a failing test file placed where one project picks it up, run alone by
// vitest as `npm test` runs it, and its report read by the same script .ci/run reads it with.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const out = mkdtempSync(join(tmpdir(), 'comfyoom-probe-'));
const made: string[] = [];
afterAll(() => {
  for (const f of [...made, out]) rmSync(f, { recursive: true, force: true });
});

/** The environment less vitest's own markers, so the probe run is a run of its own. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_ENV' && k !== 'TEST'));

async function exitOf(cmd: string, args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(cmd, args, { cwd: root, env, maxBuffer: 16 << 20 });
    return { code: 0, stdout };
  } catch (e) {
    const err = e as { code?: number; stdout?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '' };
  }
}

// The main project's probe gets a folder of its own: a file directly under test/ matches no project.
const PROBES = [
  { project: 'main', file: `test/zz-probe-${process.pid}/fails.test.ts` },
  { project: 'platforms', file: `test/discord/zz-probe-${process.pid}.test.ts` },
  { project: 'screenshots', file: `test/ingest/zz-probe-${process.pid}.test.ts` },
];

describe('a failing test fails the run', () => {
  for (const { project, file } of PROBES) {
    it(`in the ${project} project: vitest exits non-zero and the CI count says 1 failed`, async () => {
      const path = join(root, file);
      mkdirSync(dirname(path), { recursive: true });
      made.push(file.startsWith('test/zz-probe') ? dirname(path) : path);
      writeFileSync(path, "import { expect, it } from 'vitest';\nit('passes', () => expect(1).toBe(1));\nit('fails on purpose', () => expect(1).toBe(2));\n");
      const report = join(out, `${project}.json`);

      const tests = await exitOf(process.execPath, [vitest, 'run', file, '--project', project, '--reporter=json', `--outputFile.json=${report}`]);
      expect(tests.code).not.toBe(0);
      const counted = await exitOf(process.execPath, [join(root, '.ci', 'count-report.mjs'), report]);
      expect(counted.stdout.trim()).toBe('1 passed, 1 failed');
      expect(counted.code).toBe(1);
    }, 120_000);
  }
});

describe("CI's count of a report", () => {
  const count = async (report: unknown) => {
    const path = join(out, `report-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(report));
    return exitOf(process.execPath, [join(root, '.ci', 'count-report.mjs'), path]);
  };
  const file = (status: string, tests: string[]) => ({ status, assertionResults: tests.map((s) => ({ status: s })) });

  it('passes a run whose tests all passed', async () => {
    const r = await count({ success: true, numPassedTests: 2, numFailedTests: 0, testResults: [file('passed', ['passed', 'passed'])] });
    expect(r).toEqual({ code: 0, stdout: '2 passed, 0 failed\n' });
  });
  it('counts a file that failed to load as a failure', async () => {
    const r = await count({ success: false, numPassedTests: 2, numFailedTests: 0, testResults: [file('passed', ['passed', 'passed']), file('failed', [])] });
    expect(r).toEqual({ code: 1, stdout: '2 passed, 1 failed\n' });
  });
  it('fails a run that reported an error outside any test', async () => {
    const r = await count({ success: false, numPassedTests: 2, numFailedTests: 0, testResults: [file('passed', ['passed', 'passed'])] });
    expect(r).toEqual({ code: 1, stdout: '2 passed, 1 failed\n' });
  });
  it('fails a run that ran no test, and one with no report', async () => {
    expect((await count({ success: true, numPassedTests: 0, numFailedTests: 0, testResults: [] })).code).toBe(1);
    expect(await exitOf(process.execPath, [join(root, '.ci', 'count-report.mjs'), join(out, 'missing.json')])).toEqual({ code: 1, stdout: '0 passed, 1 failed\n' });
  });
});
