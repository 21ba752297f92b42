// Screenshots through `comfyoom diagnose`: several files in one call, and batch lines naming a file,
// each read by one OCR pool for the whole run (a pool costs seconds to start). The reader is given
// the OCR pool the screenshot tests share, and the tests count how often it asks for a pool.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { diagnoseFiles, runBatch, screenshotReader } from '../../src/cli/diagnose.ts';
import type { Ocr } from '../../src/ingest/ocr.ts';
import { sample } from '../helpers/corpus.ts';
import { classify, kb } from '../helpers/kb.ts';
import { ocr } from '../helpers/ocr.ts';
import { consoleStyle, renderScreenshot, STYLES } from '../helpers/screenshot.ts';

const tmp = mkdtempSync(join(tmpdir(), 'cli-shots-'));
const file = (name: string, content: string | Buffer) => {
  const p = join(tmp, name);
  writeFileSync(p, content);
  return p;
};

async function webp(png: Buffer): Promise<Buffer> {
  const img = await loadImage(png);
  const c = createCanvas(img.width, img.height);
  c.getContext('2d').drawImage(img, 0, 0);
  return c.toBuffer('image/webp');
}

/** Three screenshots as users save them, and what each one shows classified as text. */
async function screenshots() {
  const vae = renderScreenshot(sample('cf-0009').text, consoleStyle('dark', 1));
  const sampling = renderScreenshot(sample('cf-0214').text, STYLES.discord);
  const windows = renderScreenshot(sample('cf-0016').text, STYLES.windows);
  return [
    { path: file('a.png', vae.image), shows: classify(vae.shown).category },
    { path: file('b.jpg', sampling.image), shows: classify(sampling.shown).category },
    { path: file('c.webp', await webp(windows.image)), shows: classify(windows.shown).category },
  ];
}

/** A reader whose pools are counted; closing one leaves the shared pool to the other tests. */
function counted() {
  const opened: Ocr[] = [];
  const reader = screenshotReader(async () => {
    const pool: Ocr = { prepare: (image) => ocr.prepare(image), recognize: (image) => ocr.recognize(image), close: async () => undefined };
    opened.push(pool);
    return pool;
  });
  return { reader, opened };
}

describe('screenshots on the command line', () => {
  it('diagnoses a.png b.jpg c.webp with one OCR pool, each under its name', { timeout: 120_000 }, async () => {
    const shots = await screenshots();
    const { reader, opened } = counted();
    const printed: string[] = [];
    const failures = await diagnoseFiles(
      shots.map((s) => s.path),
      classify,
      kb,
      { json: true },
      (t) => printed.push(t),
      reader,
    );
    expect(failures).toBe(0);
    expect(opened).toHaveLength(1);
    const got = JSON.parse(printed.join('')) as { file: string; category: string }[];
    expect(got.map((g) => [g.file, g.category])).toEqual(shots.map((s) => [s.path, s.shows]));
    expect(new Set(got.map((g) => g.category)).size).toBe(3);
  });

  it('reads batch lines naming a file with one OCR pool, and answers a missing file with an error line', { timeout: 120_000 }, async () => {
    const shots = await screenshots();
    const log = file('sampling.log', sample('cf-0214').text);
    const lines = [
      { id: 'a', file: shots[0]!.path },
      { id: 'typed', text: sample('cf-0009').text },
      { id: 'c', file: shots[2]!.path },
      { id: 'log', file: log },
      { id: 'gone', file: join(tmp, 'gone.png') },
    ];
    const { reader, opened } = counted();
    const out: { id: string; category?: string; error?: string }[] = [];
    const failures = await runBatch(file('batch.jsonl', lines.map((l) => JSON.stringify(l)).join('\n')), classify, (l) => out.push(JSON.parse(l)), { screenshots: reader });
    expect(opened).toHaveLength(1);
    expect(failures).toBe(1);
    expect(out.map((o) => [o.id, o.category])).toEqual([
      ['a', shots[0]!.shows],
      ['typed', classify(sample('cf-0009').text).category],
      ['c', shots[2]!.shows],
      ['log', classify(sample('cf-0214').text).category],
      ['gone', undefined],
    ]);
    expect(out.at(-1)!.error).toMatch(/gone\.png/);
  });

  it('takes several files in the installed command, screenshots and logs alike, going on past a missing one', { timeout: 120_000 }, async () => {
    const [shot] = await screenshots();
    const log = file('sampling-again.log', sample('cf-0214').text);
    const bin = fileURLToPath(new URL('../../bin/comfyoom.mjs', import.meta.url));
    const r = spawnSync(process.execPath, [bin, 'diagnose', shot!.path, join(tmp, 'missing.log'), log, '--json'], { encoding: 'utf8', timeout: 100_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/missing\.log/);
    const got = JSON.parse(r.stdout) as { file: string; category: string }[];
    expect(got.map((g) => [g.file, g.category])).toEqual([
      [shot!.path, shot!.shows],
      [log, classify(sample('cf-0214').text).category],
    ]);
    expect(r.stderr).toMatch(/read .*a\.png by OCR/);
  });
});
