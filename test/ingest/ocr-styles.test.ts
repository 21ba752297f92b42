// Screenshots as people take them in help channels, in styles the first OCR tests never used (see
// NEW_STYLES), and phone photos of a monitor: 20 real pastes each, spread over every corpus batch,
// read through the real ingest path and the engine's confidence gate. Each is right (answered as
// the shown text reads; or asked about, where the text itself would not be answered), asked (the
// gate shows what was read and asks for the text, where the text would be answered) or wrong
// (answered otherwise). Reported per style.
import { describe, expect, it } from 'vitest';
import { answersScreenshot, OCR_GATE } from '../../src/conversation/engine.ts';
import { ingest } from '../../src/ingest/ingest.ts';
import { classify } from '../helpers/kb.ts';
import { ocr as pool } from '../helpers/ocr.ts';
import { sample, strict } from '../helpers/corpus.ts';
import { consoleStyle, NEW_STYLES, photographScreen, PHOTO, renderScreenshot, type Shot } from '../helpers/screenshot.ts';

const PER_STYLE = 20;

/** Each style: how a paste becomes the picture a user posts (`seed` varies a photo's angle and light). */
const styles: { name: string; ext: string; photo?: true; render(text: string, seed: number): Shot }[] = [
  ...Object.values(NEW_STYLES).map((style) => ({ name: style.name, ext: 'jpegQuality' in style ? 'jpg' : 'png', render: (text: string) => renderScreenshot(text, style) })),
  // A console at 150% photographed with a phone: turned, sheared, soft, unevenly lit and noisy.
  { name: PHOTO.name, ext: 'jpg', photo: true, render: (text: string, seed: number) => photographScreen(text, consoleStyle('dark', 1.5), PHOTO, seed) },
];

/** Falling back to a GPU OOM at an unknown stage only loses detail (the bot then asks which node ran). */
const agrees = (got: string, shows: string) => got === shows || (got === 'oom_gpu_other' && shows.startsWith('oom_gpu_'));

/**
 * Two screenshots at a time: the pool's workers are shared with the other screenshot files of this
 * worker, and a hundred queued at once kept theirs past OCR's time limit on a loaded machine.
 */
let reading = 0;
const waiting: (() => void)[] = [];
async function readShot(shot: Shot, name: string) {
  while (reading >= 2) await new Promise<void>((resolve) => waiting.push(resolve));
  reading++;
  try {
    const got = await ingest({ attachments: [{ name, read: async () => shot.image }] }, pool);
    // Past OCR's time limit the bot says so and asks for a crop or the text: nothing is answered.
    if (got.problems.some((p) => p.kind === 'ocr_timeout')) return { read: { confidence: 0 }, text: '' };
    if (!got.ocr[0]) throw new Error(`${name}: ${got.problems.map((p) => p.kind).join(', ')}`);
    return { read: got.ocr[0], text: got.text, otherText: got.otherText };
  } finally {
    reading--;
    waiting.shift()?.();
  }
}

let measured: Promise<{ id: string; style: string; shows: string; got: string; confidence: number; verdict: 'right' | 'asked' | 'wrong' }[]> | undefined;

/** Read once for both tests below. */
function results() {
  const step = strict.length / (PER_STYLE * styles.length);
  return (measured ??= Promise.all(
    styles.flatMap((style, k) =>
      Array.from({ length: PER_STYLE }, async (_, n) => {
        const s = strict[Math.floor((n * styles.length + k) * step)]!;
        const shot = style.render(s.text, n);
        const { read, text, otherText } = await readShot(shot, `${s.id}.${style.ext}`);
        const d = classify(text);
        const asText = classify(shot.shown);
        const answered = answersScreenshot(read.confidence, d, otherText === undefined ? undefined : classify(otherText));
        // What shows nothing the bot would diagnose as text (a crop without the error line, a
        // question above the log) is answered rightly by asking for the text.
        const answerable = asText.confidence >= OCR_GATE.minDiagnosisConfidence && asText.entry.priority >= 0;
        const verdict = answered ? (agrees(d.category, asText.category) ? 'right' : 'wrong') : answerable ? 'asked' : 'right';
        return { id: s.id, style: style.name, shows: asText.category, got: d.category, confidence: d.confidence, verdict } as const;
      }),
    ),
  ).then((all) => {
    console.log(
      `OCR, new styles:\n${styles
        .map((style) => {
          const mine = all.filter((r) => r.style === style.name);
          const count = (v: string) => mine.filter((r) => r.verdict === v).length;
          const off = mine.filter((r) => r.verdict !== 'right').map((r) => `${r.id} ${r.verdict} ${r.got} (shows ${r.shows})`);
          return `  ${style.name.padEnd(28)} right ${count('right')}, asked ${count('asked')}, wrong ${count('wrong')} of ${mine.length}${off.length ? `; ${off.join(', ')}` : ''}`;
        })
        .join('\n')}`,
    );
    return all;
  }));
}

const share = (rs: { verdict: string }[], v: string) => rs.filter((r) => r.verdict === v).length / rs.length;

describe('OCR of screenshots in new styles', () => {
  it('reads the frontend’s error panel through its red outline', async () => {
    const shot = renderScreenshot(sample('cf-0009').text, NEW_STYLES.frontendLight);
    const { read, text } = await readShot(shot, 'panel.png');
    // The outline once made every row hold ink: one tall "line", read at 36% confidence.
    expect(read.confidence).toBeGreaterThan(80);
    expect(classify(text).category).toBe(classify(shot.shown).category);
  });

  it('reads 85% of each screenshot style right, and 55% of photos (4 of 20 before they were turned level and lit evenly, half before every photo was despeckled), answering none wrong (a panel whose wrapped line split a signature was answered as another error)', { timeout: 900_000 }, async () => {
    const all = await results();
    for (const style of styles) {
      const mine = all.filter((r) => r.style === style.name);
      expect(share(mine, 'wrong'), style.name).toBe(0);
      expect(share(mine, 'right'), style.name).toBeGreaterThanOrEqual(style.photo ? 0.55 : 0.85);
    }
  });

  // Issue 33's bar, not met yet: 6 of 20 photos are still asked about (OCR's confidence stays under
  // the gate on their blur and shear, or a blurred letter hides the signature: `out of mamory`), and
  // each screenshot style asks about one or two. When this starts passing, make it a plain test.
  it.fails('reads 95% of every style right, asking about the rest, never confidently wrong', { timeout: 900_000 }, async () => {
    const all = await results();
    expect(all.filter((r) => r.verdict === 'wrong' && r.confidence >= 0.9).map((r) => `${r.id} (${r.style})`)).toEqual([]);
    for (const style of styles) expect(share(all.filter((r) => r.style === style.name), 'right'), style.name).toBeGreaterThanOrEqual(0.95);
  });
});
