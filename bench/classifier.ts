// Classifier bench: throughput and per-paste latency on the real corpus replicated to >= 10 MB,
// `comfyoom diagnose --batch` over both corpora replicated to 8,000+ pastes, and single-
// classification time on adversarial inputs. Every figure is also given as a ratio to a baseline
// measured in the same run: one regex pass over the same text, and for the batch the naive
// keyword classifier (keyword-baseline.mjs) over the same file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kb } from '../src/kb/load.ts';
import type { Classifier } from '../src/classify/classify.ts';
import { LIMITS } from '../src/classify/normalize.ts';
import { MB, type BenchResult, fmtBytes, fmtMs, fmtRatio, getGc, median, percentile, round, table, timeOnce, timeRuns } from './lib/measure.ts';
import { seeded } from '../src/learn/random.ts';
import { distIsFresh } from '../scripts/dist-fresh.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = join(ROOT, 'test', 'fixtures', 'corpus-dev.jsonl');
/** The held-out-sized workload of issue 14: both corpora the project was given, replicated. */
const BATCH_CORPORA = ['corpus-dev.jsonl', 'corpus-dev2.jsonl'].map((f) => join(ROOT, 'test', 'fixtures', f));
const BATCH_PASTES = 8000;
const BATCH_RUNS = 3;
/** Issue 14: `diagnose --batch` within 3x of the keyword classifier over the same file. */
const BATCH_MAX_RATIO = 3;
/**
 * What issue 14 recorded for this corpus pass when it was filed: 1.3-2.6 MB/s, about 1,200x one
 * regex pass over the same text. Its target is ten times that: 13-26 MB/s, or a ratio of 120x,
 * which is the figure this machine's load cannot move.
 */
const RECORDED = { mbPerSecLow: 1.3, mbPerSecHigh: 2.6, ratioToRegex: 1200 };
const TARGET_RATIO = RECORDED.ratioToRegex / 10;
const CORPUS_TARGET_BYTES = 10 * MB;
const CORPUS_RUNS = 3;
const ADVERSARIAL_RUNS = 5;
/** The "well under a second" target for any single paste. */
const ADVERSARIAL_LIMIT_MS = 1000;

/** The baseline: a single regex pass over the text, as a trivial "grep for OOM" would do. */
function baseline(text: string): number {
  let n = 0;
  for (const _ of text.matchAll(/out of memory/gi)) n++;
  return n;
}

// ---------------------------------------------------------------- adversarial inputs

/** Seeded, so the random-bytes input is the same in every run. */
function randomBytes(n: number, seed = 0x5eed): Buffer {
  const r = seeded(seed);
  const buf = Buffer.alloc(n);
  for (let i = 0; i < n; i++) buf[i] = Math.floor(r() * 256);
  return buf;
}

const FIVE_MB = 5 * MB;

/** `unit` repeated until the result reaches `bytes` characters (all inputs here are 1 byte/char). */
const fill = (unit: string, bytes = FIVE_MB) => unit.repeat(Math.ceil(bytes / unit.length));

const TRACEBACK = [
  '  File "/home/user/ComfyUI/execution.py", line 317, in execute',
  '    output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all, execution_block_cb=execution_block_cb, pre_execute_cb=pre_execute_cb)',
  '  File "/home/user/ComfyUI/comfy/sample.py", line 43, in sample',
  '    samples = sampler.sample(noise, positive, negative, cfg=cfg, latent_image=latent_image, start_step=start_step)',
  '  File "/home/user/ComfyUI/comfy/ldm/modules/attention.py", line 481, in attention_pytorch',
  '    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.0, is_causal=False)',
  '2025-01-12 10:41:07.512 [WARNING] loaded partially 6521.8 5934.2 0',
  'Requested to load SDXL',
  'loaded completely 9536.7 4897.0 True',
  '100%|██████████| 20/20 [00:14<00:00,  1.42it/s]',
];
const CUDA_OOM =
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.99 GiB of which 0 bytes is free. Of the allocated memory 21.47 GiB is allocated by PyTorch, and 1.12 GiB is reserved by PyTorch but unallocated.';

function hundredKLineLog(): string {
  const lines: string[] = ['Traceback (most recent call last):'];
  while (lines.length < 100_000 - 1) lines.push(TRACEBACK[lines.length % TRACEBACK.length]!);
  lines.push(CUDA_OOM);
  return lines.join('\n');
}

function adversarialInputs(): { name: string; text: string }[] {
  return [
    { name: "one 5 MB line of 'a'", text: 'a'.repeat(FIVE_MB) },
    { name: "5 MB '(' nesting, one line", text: '('.repeat(FIVE_MB / 2) + ')'.repeat(FIVE_MB / 2) },
    // Lines just under the per-line cut, so every per-line pattern sees a full-length nest.
    { name: "5 MB '[[[[' nesting, 1000-char lines", text: fill(`${'['.repeat(LIMITS.maxLineLength - 1)}\n`) },
    { name: '5 MB spaces+tabs, one line', text: fill(' \t  \t') + 'x' },
    // Whitespace runs ending in a non-space: the classic trap for \s+$ style patterns.
    { name: '5 MB spaces+tabs lines ending "x"', text: fill(`${' \t '.repeat(Math.floor((LIMITS.maxLineLength - 2) / 3))}x\n`) },
    { name: '100k-line traceback, CUDA OOM last', text: hundredKLineLog() },
    { name: '5 MB random bytes (latin1)', text: randomBytes(FIVE_MB).toString('latin1') },
    { name: '"Tried to allocate " x200k, one line', text: 'Tried to allocate '.repeat(200_000) },
    { name: '\'File "x", line 1, in f\' x100k lines', text: 'File "x", line 1, in f\n'.repeat(100_000) },
    { name: '"CUDA out of memory" + 1 MB digits', text: `CUDA out of memory${fill('0123456789', MB)}` },
  ];
}

// ---------------------------------------------------------------- corpus

function loadCorpus(): string[] {
  return readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { text: string }).text);
}

/** The corpus repeated (whole copies, in order) until it reaches `target` UTF-8 bytes. */
function replicate(texts: string[], target: number): { texts: string[]; bytes: number } {
  const out: string[] = [];
  let bytes = 0;
  while (bytes < target) {
    for (const t of texts) {
      out.push(t);
      bytes += Buffer.byteLength(t, 'utf8');
    }
  }
  return { texts: out, bytes };
}

/**
 * Times fn on each text individually; returns per-text milliseconds. A cheap fn is repeated `reps`
 * times per text and averaged, so the clock's own cost (~0.1 µs) does not swamp sub-µs work.
 */
function perPaste(texts: readonly string[], fn: (t: string) => unknown, reps: number): number[] {
  return texts.map((t) =>
    timeOnce(() => {
      for (let i = 0; i < reps; i++) fn(t);
    }) / reps,
  );
}

interface PassStats {
  totalMs: number;
  mbPerSec: number;
  medianMs: number;
  p95Ms: number;
}

/** Runs the per-paste loop `runs` times and keeps the run with the median total time. */
function corpusPass(texts: readonly string[], bytes: number, fn: (t: string) => unknown, runs: number, reps = 1): PassStats {
  const passes = Array.from({ length: runs }, () => {
    const samples = perPaste(texts, fn, reps);
    return { samples, total: samples.reduce((a, b) => a + b, 0) };
  }).sort((a, b) => a.total - b.total);
  const mid = passes[passes.length >> 1]!;
  return {
    totalMs: mid.total,
    mbPerSec: bytes / MB / (mid.total / 1000),
    medianMs: median(mid.samples),
    p95Ms: percentile(mid.samples, 95),
  };
}

function memoryWhileClassifying(classify: Classifier, texts: readonly string[]) {
  const gc = getGc();
  gc?.();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  texts.forEach((t, i) => {
    classify(t);
    if (i % 200 === 0) {
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    }
  });
  const after = process.memoryUsage();
  gc?.();
  const afterGc = process.memoryUsage();
  return {
    gcAvailable: gc !== undefined,
    heapUsedBefore: before.heapUsed,
    rssBefore: before.rss,
    heapDeltaPeak: Math.max(peakHeap, after.heapUsed) - before.heapUsed,
    heapDeltaEnd: after.heapUsed - before.heapUsed,
    heapDeltaAfterGc: afterGc.heapUsed - before.heapUsed,
    rssDeltaPeak: Math.max(peakRss, after.rss) - before.rss,
    rssDeltaEnd: after.rss - before.rss,
  };
}

// ---------------------------------------------------------------- batch

function wallMs(args: string[]): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr.toString().slice(-500)}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * `comfyoom diagnose --batch` as a user runs it (the installed bin, a fresh process) against the
 * keyword classifier over the same JSONL file, interleaved, median of a few runs each.
 */
function batchAgainstKeywords() {
  const lines = BATCH_CORPORA.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()))
    .map((l) => JSON.parse(l) as { id: string; text: string });
  const copies = Math.ceil(BATCH_PASTES / lines.length);
  const dir = mkdtempSync(join(tmpdir(), 'classifier-bench-'));
  const file = join(dir, 'batch.jsonl');
  writeFileSync(file, Array.from({ length: copies }, (_, k) => lines.map((s) => JSON.stringify({ id: `${s.id}-${k}`, text: s.text })).join('\n')).join('\n') + '\n');
  const bytes = statSync(file).size;
  const pastes = copies * lines.length;
  const bin = join(ROOT, 'bin', 'comfyoom.mjs');
  const compiled = distIsFresh(ROOT);
  wallMs([bin, 'diagnose', '--batch', file]);
  const cli: number[] = [];
  const keywords: number[] = [];
  for (let i = 0; i < BATCH_RUNS; i++) {
    keywords.push(wallMs([join(ROOT, 'bench', 'keyword-baseline.mjs'), file]));
    cli.push(wallMs([bin, 'diagnose', '--batch', file]));
  }
  rmSync(dir, { recursive: true, force: true });
  const ratio = median(cli) / median(keywords);
  console.log(`\nclassifier — diagnose --batch over ${pastes} pastes (${fmtBytes(bytes)}, the two corpora ${copies} times), a fresh process each, median of ${BATCH_RUNS} runs`);
  console.log(table(['', 'comfyoom diagnose --batch', 'keyword classifier', 'ratio'], [['wall time', fmtMs(median(cli)), fmtMs(median(keywords)), fmtRatio(ratio)]]));
  console.log(`>>> batch ratio (diagnose --batch / keyword classifier): ${fmtRatio(ratio)} (target ${BATCH_MAX_RATIO}x)${compiled ? '' : ' — dist/ is older than the sources (npm run build): the bin ran them through tsx'}`);
  return { pastes, bytes, runs: BATCH_RUNS, cliMs: round(median(cli)), keywordMs: round(median(keywords)), ratio: round(ratio), compiledBin: compiled };
}

// ---------------------------------------------------------------- bench

/** The classifier users run: the compiled one by the bin's rule, so the figures are not tsx's (its transform wraps every closure it creates). */
async function usersClassifier(kbDir: string | undefined): Promise<{ classify: Classifier; compiled: boolean }> {
  const compiled = distIsFresh(ROOT);
  const from = compiled ? '../dist/' : '../src/';
  const ext = compiled ? 'js' : 'ts';
  const { loadKb } = (await import(`${from}kb/load.${ext}`)) as { loadKb: (dir?: string) => Kb };
  const { createClassifier } = (await import(`${from}classify/classify.${ext}`)) as { createClassifier: (kb: Kb) => Classifier };
  return { classify: createClassifier(loadKb(kbDir)), compiled };
}

export async function benchClassifier(): Promise<BenchResult> {
  const kbDir = process.env.COMFYOOM_KB || undefined;
  const { classify, compiled } = await usersClassifier(kbDir);
  const corpus = loadCorpus();
  const { texts, bytes } = replicate(corpus, CORPUS_TARGET_BYTES);

  // Warm-up: let the JIT compile both code paths (and every kb regex) before anything is timed.
  for (let i = 0; i < 3; i++) for (const t of corpus) (classify(t), baseline(t));

  // Memory first, while the heap and RSS have not yet been grown by the timed passes.
  const mem = memoryWhileClassifying(classify, texts);

  console.log(`\nclassifier — corpus: ${corpus.length} pastes replicated to ${texts.length} (${fmtBytes(bytes)}), median of ${CORPUS_RUNS} runs, ${compiled ? 'the compiled dist/ as the bin runs it' : 'the sources through tsx (dist/ is older than them: npm run build)'}`);
  const cls = corpusPass(texts, bytes, classify, CORPUS_RUNS);
  const base = corpusPass(texts, bytes, baseline, CORPUS_RUNS, 20);
  const ratio = { total: cls.totalMs / base.totalMs, median: cls.medianMs / base.medianMs, p95: cls.p95Ms / base.p95Ms };
  console.log(
    table(
      ['', 'classifier', 'baseline (1 regex)', 'ratio cls/base'],
      [
        ['total time', fmtMs(cls.totalMs), fmtMs(base.totalMs), fmtRatio(ratio.total)],
        ['throughput', `${round(cls.mbPerSec)} MB/s`, `${round(base.mbPerSec)} MB/s`, ''],
        ['latency median', fmtMs(cls.medianMs), fmtMs(base.medianMs), fmtRatio(ratio.median)],
        ['latency p95', fmtMs(cls.p95Ms), fmtMs(base.p95Ms), fmtRatio(ratio.p95)],
      ],
    ),
  );
  console.log(`>>> corpus ratio (classifier time / single-regex time): ${fmtRatio(ratio.total)}`);
  const speedUp = { byRatio: RECORDED.ratioToRegex / ratio.total, low: cls.mbPerSec / RECORDED.mbPerSecLow, high: cls.mbPerSec / RECORDED.mbPerSecHigh };
  console.log(
    `>>> against issue 14's recorded figure: ${fmtRatio(speedUp.byRatio)} faster by the same-run ratio (${fmtRatio(RECORDED.ratioToRegex)} then, target ${fmtRatio(TARGET_RATIO)}); ` +
      `${round(cls.mbPerSec)} MB/s is ${fmtRatio(speedUp.high)}-${fmtRatio(speedUp.low)} the ${RECORDED.mbPerSecLow}-${RECORDED.mbPerSecHigh} MB/s recorded (target 10x)`,
  );
  const failures: string[] = [];
  if (ratio.total > TARGET_RATIO) failures.push(`corpus classification takes ${fmtRatio(ratio.total)} a regex pass (target ${fmtRatio(TARGET_RATIO)}: ten times issue 14's ${fmtRatio(RECORDED.ratioToRegex)})`);

  const batch = batchAgainstKeywords();
  if (batch.ratio > BATCH_MAX_RATIO) failures.push(`diagnose --batch takes ${fmtRatio(batch.ratio)} the keyword classifier's time (target ${BATCH_MAX_RATIO}x)`);

  console.log(
    `memory while classifying ${fmtBytes(bytes)}${mem.gcAvailable ? '' : ' (no gc available: figures include garbage)'}: ` +
      `heap before ${fmtBytes(mem.heapUsedBefore)}, peak +${fmtBytes(mem.heapDeltaPeak)}, heap at end +${fmtBytes(mem.heapDeltaEnd)}, ` +
      `heap after gc ${mem.heapDeltaAfterGc >= 0 ? '+' : ''}${fmtBytes(mem.heapDeltaAfterGc)}, ` +
      `rss before ${fmtBytes(mem.rssBefore)}, peak +${fmtBytes(mem.rssDeltaPeak)}, rss at end ${mem.rssDeltaEnd >= 0 ? '+' : ''}${fmtBytes(mem.rssDeltaEnd)}`,
  );

  console.log(`\nclassifier — adversarial inputs, one classification each, median of ${ADVERSARIAL_RUNS} runs (3 if slow) (limit ${fmtMs(ADVERSARIAL_LIMIT_MS)})`);
  const adversarial = adversarialInputs().map(({ name, text }) => {
    let category = '';
    const first = timeOnce(() => (category = classify(text).category));
    // The first call doubles as warm-up; a slow input gets fewer repeats to keep the bench short.
    const slow = first > ADVERSARIAL_LIMIT_MS / 4;
    const samples = slow ? [first, ...timeRuns(() => classify(text), 2)] : timeRuns(() => classify(text), ADVERSARIAL_RUNS);
    const runs = samples.length;
    const clsMs = round(median(samples));
    const baseMs = round(median(timeRuns(() => baseline(text), ADVERSARIAL_RUNS)));
    const ok = clsMs <= ADVERSARIAL_LIMIT_MS;
    if (!ok) failures.push(`adversarial input ${name}: took ${fmtMs(clsMs)} (limit ${fmtMs(ADVERSARIAL_LIMIT_MS)})`);
    return {
      name,
      chars: text.length,
      lines: text.split('\n').length,
      category,
      classifierMs: round(clsMs),
      baselineMs: round(baseMs),
      ratio: round(clsMs / baseMs),
      runs,
      ok,
    };
  });
  console.log(
    table(
      ['input', 'size', 'lines', 'category', 'classifier', 'baseline', 'ratio', '< 1 s'],
      adversarial.map((a) => [
        a.name,
        fmtBytes(a.chars),
        String(a.lines),
        a.category,
        fmtMs(a.classifierMs),
        fmtMs(a.baselineMs),
        fmtRatio(a.ratio),
        a.ok ? 'ok' : 'FAIL',
      ]),
    ),
  );
  const worst = adversarial.reduce((a, b) => (b.classifierMs > a.classifierMs ? b : a));
  console.log(`>>> slowest adversarial: ${worst.name} — ${fmtMs(worst.classifierMs)} (${fmtRatio(worst.ratio)} the single-regex pass)`);
  for (const f of failures) console.log(`FAIL ${f}`);

  return {
    name: 'classifier',
    failures,
    summary: {
      bench: 'classifier',
      node: process.version,
      kb: kbDir ?? 'default',
      baseline: '/out of memory/gi matchAll over the same text',
      compiled,
      corpus: {
        pastes: corpus.length,
        replicatedPastes: texts.length,
        bytes,
        runs: CORPUS_RUNS,
        classifier: { totalMs: round(cls.totalMs), mbPerSec: round(cls.mbPerSec), medianMs: round(cls.medianMs), p95Ms: round(cls.p95Ms) },
        baseline: { totalMs: round(base.totalMs), mbPerSec: round(base.mbPerSec), medianMs: round(base.medianMs), p95Ms: round(base.p95Ms) },
        ratio: { total: round(ratio.total), median: round(ratio.median), p95: round(ratio.p95) },
        recorded: RECORDED,
        speedUpOverRecorded: { byRatio: round(speedUp.byRatio), mbPerSecLow: round(speedUp.low), mbPerSecHigh: round(speedUp.high) },
        targetRatio: TARGET_RATIO,
      },
      batch,
      memory: mem,
      adversarial,
      adversarialLimitMs: ADVERSARIAL_LIMIT_MS,
      slowestAdversarialMs: worst.classifierMs,
      ok: failures.length === 0,
      failures,
    },
  };
}
