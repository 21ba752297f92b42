import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClassifier } from '../../src/classify/classify.ts';
import { DEFAULT_KB_DIR } from '../../src/kb/dir.ts';
import { KbError, loadKb } from '../../src/kb/load.ts';

const dirs: string[] = [];
const copyKb = () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'kb-')), 'kb');
  cpSync(DEFAULT_KB_DIR, dir, { recursive: true });
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(join(d, '..'), { recursive: true, force: true })));

const problemsOf = (dir: string) => {
  try {
    loadKb(dir);
  } catch (e) {
    if (e instanceof KbError) return e.problems;
    throw e;
  }
  return [];
};

describe('kb validation', () => {
  it('loads the shipped kb', () => {
    const kb = loadKb();
    expect(kb.entries.length).toBeGreaterThan(10);
    expect(kb.version).toMatch(/^[0-9a-f]{12}$/);
  });

  it('names the file, the field and the reason for a bad entry', () => {
    const dir = copyKb();
    writeFileSync(
      join(dir, 'entries', 'broken-entry.yaml'),
      'id: broken-entry\ncategory: oom_gpu_vae\ntitle: {en: Only English}\ncause: {en: x, zh: x}\nmatch: {fact: colour, is: red}\nsteps: [no-such-step]\nsources: []\n',
    );
    const problems = problemsOf(dir);
    const mine = problems.filter((p) => p.file === 'kb/entries/broken-entry.yaml');
    expect(mine.map((p) => p.field)).toEqual(expect.arrayContaining(['title.zh', 'sources']));
    expect(mine.some((p) => p.field.startsWith('match'))).toBe(true);
    expect(mine.every((p) => p.reason.length > 0)).toBe(true);
  });

  it('catches a step reference that does not exist and an id that does not match its file', () => {
    const dir = copyKb();
    writeFileSync(
      join(dir, 'entries', 'renamed.yaml'),
      'id: other-name\ncategory: not_oom\ntitle: {en: x, zh: x, zh-Hant: x, ja: x, ko: x}\ncause: {en: x, zh: x, zh-Hant: x, ja: x, ko: x}\nmatch: {fact: oom, known: false}\nsteps: [no-such-step]\nsources: [{title: t, url: "https://example.com"}]\n',
    );
    const problems = problemsOf(dir);
    expect(problems).toContainEqual({ file: 'kb/entries/renamed.yaml', field: 'steps.0', reason: 'no step "no-such-step" in kb/steps/' });
    expect(problems).toContainEqual(expect.objectContaining({ file: 'kb/entries/renamed.yaml', field: 'id' }));
  });

  it('rejects a signature pattern with no linear-time form, and broken YAML', () => {
    const dir = copyKb();
    writeFileSync(join(dir, 'signatures.yaml'), "- id: slow\n  patterns: ['(a)\\1b']\n");
    writeFileSync(join(dir, 'steps', 'bad.yaml'), 'id: [unclosed\n');
    const problems = problemsOf(dir);
    expect(problems.find((p) => p.field === 'slow.patterns.0')?.reason).toMatch(/linear time/);
    expect(problems.find((p) => p.file === 'kb/steps/bad.yaml')?.reason).toMatch(/not valid YAML/);
  });

  it('runs a user kb whose patterns would backtrack for minutes elsewhere, and answers at once', () => {
    const dir = copyKb();
    appendFileSync(join(dir, 'signatures.yaml'), "\n- id: user_pattern\n  patterns: ['(a|aa){1,30}b', '(x+x+)+y']\n");
    const classify = createClassifier(loadKb(dir));
    // On a backtracking engine: about a minute for 50 characters, ten for 1,000.
    const d = classify(`${'a'.repeat(1000)}\n${'x'.repeat(1000)}\nRuntimeError: CUDA out of memory`);
    expect(d.category).toBe('oom_gpu_other');
    expect(d.facts.signatures).not.toContain('user_pattern');
  });

  it('matches node globs with many wildcards at once', () => {
    const dir = copyKb();
    const stages = join(dir, 'stages.yaml');
    writeFileSync(stages, readFileSync(stages, 'utf8').replace("nodes: ['VAEEncode*'", "nodes: ['*a*a*a*a*a*a*a*a*a*a*a*a*b', 'VAEEncode*'"));
    const classify = createClassifier(loadKb(dir));
    const d = classify(`- **Node Type:** ${'a'.repeat(60)}\n- **Exception Message:** Allocation on device`);
    expect(d.facts.node).toBe('a'.repeat(60));
    expect(d.category).toBe('oom_gpu_other');
  });
});
