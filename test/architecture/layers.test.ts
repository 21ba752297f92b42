// The import rule of .dependency-cruiser.cjs (drawn in docs/architecture.md), run by
// dependency-cruiser itself: src/ keeps it, and the rule notices a room that breaks it.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Its package exports no path to its command, which sits in its bin/.
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** dependency-cruiser over `dir`'s src/ with the project's rule: its exit code (the number of violations) and report. */
function cruise(dir: string): { violations: number; report: string } {
  const r = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
  if (r.status === null) throw new Error(`dependency-cruiser did not finish: ${r.error?.message ?? r.signal}`);
  return { violations: r.status, report: r.stdout + r.stderr };
}

/** A copy of the project's src/ and tsconfig.json, to break on purpose. */
function copyOfSources(): string {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  copies.push(dir);
  return dir;
}
const copies: string[] = [];
afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the rooms of src/ import only downward', () => {
  it('holds for the code as it is: no upward import, no circle', () => {
    const { violations, report } = cruise(ROOT);
    expect(report).toContain('no dependency violations found');
    expect(violations).toBe(0);
  });

  it.each([
    ['the store importing the conversation', 'src/store/cases.ts', "import type { Engine } from '../conversation/engine.ts';", 'beside-knows-only-below'],
    ['the kb loader importing the classifier', 'src/kb/load.ts', "import type { Classifier } from '../classify/classify.ts';", 'upward-from-kb'],
    ['a face importing the app that starts it', 'src/adapters/discord/bot.ts', "import type { Config } from '../../app/config.ts';", 'upward-from-adapters'],
    ['the classifier importing the plan', 'src/classify/classify.ts', "import type { Plan } from '../plan/plan.ts';", 'upward-from-classify'],
  ])('fails on %s', (_what, file, line, rule) => {
    const dir = copyOfSources();
    appendFileSync(join(dir, file), `\n${line}\n`);
    const { violations, report } = cruise(dir);
    expect(violations).toBeGreaterThan(0);
    expect(report).toContain(`error ${rule}: ${file}`);
  });

  it('fails on a circle between two files of one room', () => {
    const dir = copyOfSources();
    writeFileSync(join(dir, 'src/ingest/echo.ts'), "import { kindOf } from './ingest.ts';\nexport const echo = kindOf;\n");
    appendFileSync(join(dir, 'src/ingest/ingest.ts'), "\nexport { echo } from './echo.ts';\n");
    const { violations, report } = cruise(dir);
    expect(violations).toBeGreaterThan(0);
    expect(report).toMatch(/error no-circle: src\/ingest\/(echo|ingest)\.ts/);
  });

  it('fails on a room of src/ that has no place in the layers', () => {
    const dir = copyOfSources();
    cpSync(join(dir, 'src/render'), join(dir, 'src/unplaced'), { recursive: true });
    appendFileSync(join(dir, 'src/cli/main.ts'), "\nimport '../unplaced/diagnosis-text.ts';\n");
    expect(cruise(dir).report).toContain('error every-room-placed: src/cli/main.ts → src/unplaced/diagnosis-text.ts');
  });
});
