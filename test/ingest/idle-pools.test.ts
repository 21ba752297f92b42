// A help channel's bot reads a screenshot now and then: its OCR workers (about 250 MB) and its
// classifier workers (about 55 MB each) start at the first piece of work and stop after a quiet
// spell, so an idle bot stays small (npm run bench -- footprint), and the next piece of work starts
// them again with the same result.
import { afterAll, describe, expect, it } from 'vitest';
import { WorkPool } from '../../src/conversation/pool.ts';
import { ingest } from '../../src/ingest/ingest.ts';
import { OcrPool } from '../../src/ingest/ocr.ts';
import { DEFAULT_KB_DIR } from '../../src/kb/dir.ts';
import { kb } from '../helpers/kb.ts';
import { renderScreenshot, STYLES } from '../helpers/screenshot.ts';

const QUIET_MS = 1000;
const work = new WorkPool({ kb, kbDir: DEFAULT_KB_DIR, threads: 1, idleMs: QUIET_MS });
const ocr = new OcrPool({ prepare: work.prepareForOcr, size: 1, idleMs: QUIET_MS });
afterAll(() => Promise.all([work.close(), ocr.close()]));

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return check();
}

describe('pools that hold memory only while there is work', () => {
  it('start their workers at the first screenshot, stop them after a quiet spell, and start them again at the next', async () => {
    expect(ocr.started).toBe(0);
    expect(work.threadsUp).toBe(0);
    const shot = renderScreenshot('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB', STYLES.consoleLight);
    const read = () => ingest({ attachments: [{ name: 'shot.png', read: async () => shot.image }] }, ocr);

    // The work pool prepares the image, then OCR reads it.
    const prepared = await ocr.prepare(shot.image);
    expect(work.threadsUp).toBe(1);
    expect(prepared.ok && (await ocr.recognize(prepared)).text).toContain('out of memory');
    expect(ocr.started).toBe(1);

    expect(await until(() => ocr.started === 0 && work.threadsUp === 0, 10_000)).toBe(true);

    const again = await read();
    expect(again.text).toContain('out of memory');
    expect(ocr.started).toBe(1);
  });
});
