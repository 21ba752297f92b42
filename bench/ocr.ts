// OCR bench: seconds per screenshot through the real worker pool (corpus pastes rendered in every
// screenshot style the tests use: consoles, a Discord code block, a phone chat, ComfyUI's dialog),
// throughput with every worker busy, and the memory the workers take. The baseline measured in the same run is preparing the same image (decode, greyscale,
// upscale, re-encode), so the ratio says how much of a screenshot's cost is recognition itself.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareForOcr } from '../src/ingest/image.ts';
import { OcrPool } from '../src/ingest/ocr.ts';
import { renderScreenshot, STYLES } from '../test/helpers/screenshot.ts';
import { type BenchResult, fmtBytes, fmtMs, fmtRatio, median, percentile, round, table } from './lib/measure.ts';

const CORPUS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'corpus-dev.jsonl');
const SHOTS = 18;
/** A screenshot must be answered while a chat user still waits. */
const TARGET_MEDIAN_MS = 5000;

export async function benchOcr(): Promise<BenchResult> {
  const samples = readFileSync(CORPUS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { text: string; category: string });
  const texts = samples.filter((s) => s.category !== 'ambiguous').slice(0, SHOTS).map((s) => s.text);
  const styles = Object.values(STYLES);
  const shots = texts.map((t, i) => renderScreenshot(t, styles[i % styles.length]!).image);

  const prepMs: number[] = [];
  const prepared: Buffer[] = [];
  for (const shot of shots) {
    const t0 = performance.now();
    const p = await prepareForOcr(shot);
    prepMs.push(performance.now() - t0);
    if (!p.ok) throw new Error(`could not prepare a screenshot: ${p.reason}`);
    prepared.push(p.png);
  }

  const rssBefore = process.memoryUsage().rss;
  const pool = new OcrPool();
  const startT = performance.now();
  await pool.recognize(prepared[0]!); // starts the workers and warms them up
  const startMs = performance.now() - startT;
  const rssWarm = process.memoryUsage().rss;

  // One at a time: the latency a user sees on an idle bot.
  const oneMs: number[] = [];
  for (const png of prepared) oneMs.push((await pool.recognize(png)).ms);

  // All at once: throughput with every worker busy.
  const t0 = performance.now();
  await Promise.all(prepared.map((png) => pool.recognize(png)));
  const allMs = performance.now() - t0;
  const rssPeak = process.memoryUsage().rss;
  await pool.close();

  const perShot = median(oneMs);
  const ratio = perShot / median(prepMs);
  console.log(`\nocr — ${prepared.length} rendered corpus screenshots (${styles.length} styles), pool of ${pool.size} workers`);
  console.log(
    table(
      ['', 'value'],
      [
        ['pool start + first image', fmtMs(startMs)],
        ['seconds per screenshot (median, one at a time)', fmtMs(perShot)],
        ['p95, one at a time', fmtMs(percentile(oneMs, 95))],
        [`throughput, ${pool.size} workers busy`, `${round((prepared.length / allMs) * 1000)} screenshots/s`],
        ['baseline: preparing the image (median)', fmtMs(median(prepMs))],
        ['ratio ocr / preparation', fmtRatio(ratio)],
        ['worker memory (rss after start − before)', fmtBytes(rssWarm - rssBefore)],
        ['rss peak − before', fmtBytes(rssPeak - rssBefore)],
      ],
    ),
  );
  const failures = perShot > TARGET_MEDIAN_MS ? [`median ${Math.round(perShot)} ms per screenshot is over ${TARGET_MEDIAN_MS} ms`] : [];
  return {
    name: 'ocr',
    failures,
    summary: {
      bench: 'ocr',
      screenshots: prepared.length,
      workers: pool.size,
      startMs: round(startMs),
      secondsPerScreenshot: round(perShot / 1000),
      p95Seconds: round(percentile(oneMs, 95) / 1000),
      throughputPerSecond: round((prepared.length / allMs) * 1000),
      preparationMs: round(median(prepMs)),
      ratioOcrToPreparation: round(ratio),
      workerRssBytes: rssWarm - rssBefore,
      peakRssDeltaBytes: rssPeak - rssBefore,
      ok: !failures.length,
    },
  };
}
