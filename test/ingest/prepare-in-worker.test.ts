// The bots prepare screenshots in the work pool's workers (issue 14: decoding, greyscale, scaling and
// the pixel loops of a large screenshot held the event loop for seconds). Behaviour, not timing:
// while a large screenshot is prepared the event loop keeps turning, a worker did it, and what it
// gives back is what preparing on this thread gives.
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkPool } from '../../src/conversation/pool.ts';
import { prepareForOcr } from '../../src/ingest/image.ts';
import { OcrPool } from '../../src/ingest/ocr.ts';
import { DEFAULT_KB_DIR } from '../../src/kb/dir.ts';
import { kb } from '../helpers/kb.ts';

const work = new WorkPool({ kb, kbDir: DEFAULT_KB_DIR, threads: 1 });
const ocr = new OcrPool({ prepare: work.prepareForOcr });
afterAll(() => Promise.all([work.close(), ocr.close()]));

/** A tall dark console, 2400 × 4000 pixels of small text. */
function largeScreenshot(): Buffer {
  const c = createCanvas(2400, 4000);
  const g = c.getContext('2d');
  g.fillStyle = '#1e1e1e';
  g.fillRect(0, 0, c.width, c.height);
  g.fillStyle = '#d4d4d4';
  g.font = '13px sans-serif';
  for (let y = 18; y < c.height; y += 18) g.fillText('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB '.repeat(4), 6, y);
  return c.toBuffer('image/png');
}

describe('preparing a screenshot for the bots', () => {
  it('runs in a worker while the event loop turns, with the same result as on this thread', async () => {
    const image = largeScreenshot();
    const before = work.completed;
    let done = false;
    const preparing = ocr.prepare(image).finally(() => (done = true));
    // Prepared on this thread, the image would take its whole preparation in one turn.
    let turns = 0;
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      turns++;
    }
    const there = await preparing;
    expect(turns).toBeGreaterThan(100);
    expect(work.completed - before).toBe(1);
    const here = await prepareForOcr(image);
    expect(there.ok && here.ok).toBe(true);
    if (!there.ok || !here.ok) return;
    // Millions of grey levels: compared as bytes, not element by element.
    const { grey: greyThere, ...restThere } = there;
    const { grey: greyHere, ...restHere } = here;
    expect(Buffer.from(greyThere).equals(Buffer.from(greyHere))).toBe(true);
    expect(restThere).toEqual(restHere);
    expect(there.bands.length).toBeGreaterThan(100);
  });
});
