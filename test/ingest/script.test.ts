// Which lines of a screenshot show Chinese (image.ts), and the pieces OCR reads a page in (ocr.ts):
// Chinese data only where Han script is, cuts only between lines. Rendered screenshots, no OCR.
import { describe, expect, it } from 'vitest';
import { prepareForOcr, type TextBand } from '../../src/ingest/image.ts';
import { planPieces } from '../../src/ingest/ocr.ts';
import { batchesUpTo } from '../helpers/corpus.ts';
import { renderScreenshot, STYLES } from '../helpers/screenshot.ts';

// The batches the bars were set on: batches added later for the classifier (harvest19 alone holds
// 30 Chinese pastes) would move the sample and lengthen the run, each screenshot being rendered.
const corpus = batchesUpTo('harvest14');

const HAN = /[\u4e00-\u9fff]/;
const styles = Object.values(STYLES);

async function bands(text: string, style = STYLES.consoleDark) {
  const p = await prepareForOcr(renderScreenshot(text, style).image);
  if (!p.ok) throw new Error(p.reason);
  return p.bands;
}

describe('Han script on a screenshot', () => {
  it('marks the lines of Chinese and only those', async () => {
    const got = await bands(['Error occurred when executing KSampler:', '显存不足，请降低分辨率或者批量大小后重试', 'torch.OutOfMemoryError: CUDA out of memory.'].join('\n'));
    expect(got.map((b) => b.han)).toEqual([false, true, false]);
  });

  it('finds no Chinese on English screenshots in any style', async () => {
    const english = corpus.filter((s) => s.category !== 'ambiguous' && !HAN.test(s.text)).filter((_, i) => i % 12 === 0);
    const marked: string[] = [];
    for (const [i, s] of english.entries()) {
      const style = styles[i % styles.length]!;
      if ((await bands(s.text, style)).some((b) => b.han)) marked.push(`${s.id} (${style.name})`);
    }
    expect(english.length).toBeGreaterThan(30);
    expect(marked).toEqual([]);
  });

  it('finds Chinese on most screenshots that show a sentence of it', async () => {
    const shots = corpus
      .filter((s) => HAN.test(s.text))
      .flatMap((s, i) => [renderScreenshot(s.text, styles[i % styles.length]!)])
      .filter((shot) => (shot.shown.match(/[\u4e00-\u9fff]/g)?.length ?? 0) >= 10);
    let found = 0;
    for (const shot of shots) {
      const p = await prepareForOcr(shot.image);
      if (p.ok && p.bands.some((b) => b.han)) found++;
    }
    expect(shots.length).toBeGreaterThan(10);
    expect(found / shots.length).toBeGreaterThanOrEqual(0.8);
  });
});

const band = (top: number, han = false): TextBand => ({ top, bottom: top + 20, han });

describe('pieces of a page', () => {
  it('reads a blank page whole, in English', () => {
    expect(planPieces([], 300, 2)).toEqual([{ top: 0, bottom: 300, langs: 'eng' }]);
  });

  it('cuts a long English page in two halfway between lines, covering the whole page', () => {
    const lines = Array.from({ length: 10 }, (_, i) => band(10 + 30 * i));
    expect(planPieces(lines, 320, 2)).toEqual([
      { top: 0, bottom: 155, langs: 'eng' },
      { top: 155, bottom: 320, langs: 'eng' },
    ]);
    expect(planPieces(lines, 320, 1)).toEqual([{ top: 0, bottom: 320, langs: 'eng' }]);
  });

  it('does not cut a short page', () => {
    expect(planPieces([band(10), band(40), band(70)], 100, 2)).toHaveLength(1);
  });

  it('gives Chinese data only to the run of lines showing Han script', () => {
    const lines = [band(10), band(40), band(70, true), band(100, true), band(130)];
    expect(planPieces(lines, 160, 2)).toEqual([
      { top: 0, bottom: 65, langs: 'eng' },
      { top: 65, bottom: 125, langs: 'eng+chi_sim' },
      { top: 125, bottom: 160, langs: 'eng' },
    ]);
  });
});
