// Screenshots of real pastes: rendered at test time in light and dark themes at 100% and 150%
// scale, read by the real OCR pool, classified. The bar: the labelled category for at
// least 90% of the strictly labelled samples.
import { afterAll, describe, expect, it } from 'vitest';
import { prepareForOcr } from '../../src/ingest/image.ts';
import { OcrPool } from '../../src/ingest/ocr.ts';
import { classify } from '../helpers/kb.ts';
import { strict } from '../helpers/corpus.ts';
import { renderScreenshot, type ShotStyle } from '../helpers/screenshot.ts';

const styles: ShotStyle[] = [
  { theme: 'light', scale: 1 },
  { theme: 'dark', scale: 1 },
  { theme: 'light', scale: 1.5 },
  { theme: 'dark', scale: 1.5 },
];
const pool = new OcrPool();
afterAll(() => pool.close());

describe('OCR of console screenshots', () => {
  it('classifies at least 90% of the rendered corpus screenshots right, in every theme and scale', { timeout: 600_000 }, async () => {
    // Each sample in one style, rotating, so all four styles are covered about equally.
    const jobs = strict.map((s, i) => ({ s, style: styles[i % styles.length]! }));
    const results = await Promise.all(
      jobs.map(async ({ s, style }) => {
        const prepared = await prepareForOcr(renderScreenshot(s.text, style));
        if (!prepared.ok) throw new Error(prepared.reason);
        const read = await pool.recognize(prepared.png);
        return { id: s.id, style: `${style.theme}@${style.scale * 100}%`, ok: classify(read.text).category === s.category, confidence: read.confidence };
      }),
    );
    const right = results.filter((r) => r.ok);
    const misses = results.filter((r) => !r.ok).map((r) => `${r.id} (${r.style}, OCR ${Math.round(r.confidence)}%)`);
    console.log(`OCR corpus: ${right.length}/${results.length} right; misses: ${misses.join(', ')}`);
    expect(right.length / results.length, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
    for (const style of styles) {
      const mine = results.filter((r) => r.style === `${style.theme}@${style.scale * 100}%`);
      expect(mine.filter((r) => r.ok).length / mine.length, `${style.theme} ${style.scale}`).toBeGreaterThanOrEqual(0.85);
    }
  });
});
