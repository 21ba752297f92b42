// Fuzz bench: 20,000 seeded hostile inputs (test/helpers/fuzz.ts; the big ones at 21 MB) through
// the whole engine into a real SQLite file. Reports crashes (an exception, or no message), and the
// time per input (median, p99, max) next to a baseline measured on the same inputs in the same
// run: one regex pass over the text, as a trivial "grep for OOM" would do.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../src/conversation/engine.ts';
import { loadKb } from '../src/kb/load.ts';
import { CaseStore } from '../src/store/cases.ts';
import { openDb } from '../src/store/db.ts';
import { sqliteSql } from '../src/store/sql.ts';
import { fuzzInputs } from '../test/helpers/fuzz.ts';
import { type BenchResult, fmtMs, fmtRatio, median, percentile, round, table } from './lib/measure.ts';

const INPUTS = 20_000;
const BIG_MB = 21;
/** No single input may take longer than this. */
const LIMIT_MS = 2000;

const baseline = (text: string) => text.match(/out of memory/gi)?.length ?? 0;

export async function benchFuzz(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-bench-'));
  const db = openDb(join(dir, 'cases.db'));
  const engine = new Engine({ kb: loadKb(process.env.COMFYOOM_KB || undefined), store: new CaseStore(sqliteSql(db)), ratePerMinute: 1e9 });
  const times: number[] = [];
  const baseTimes: number[] = [];
  const crashes: string[] = [];
  const slowest = { ms: 0, kind: '' };
  let n = 0;
  for (const input of fuzzInputs(INPUTS, 0xbe7c4, { bigMb: BIG_MB })) {
    const file = input.file;
    const text = input.text ?? file?.bytes.toString('latin1') ?? '';
    let t = performance.now();
    baseline(text);
    baseTimes.push(performance.now() - t);
    t = performance.now();
    try {
      const out = await engine.receive(
        { platform: 'bench', user: `u${n++ % 100}` },
        { ...(input.text !== undefined ? { text: input.text } : {}), ...(file ? { attachments: [{ name: file.name, size: file.bytes.length, read: async () => file.bytes }] } : {}) },
      );
      if (!out.length) crashes.push(`${input.kind}: no message`);
    } catch (e) {
      crashes.push(`${input.kind}: ${(e as Error).message}`);
    }
    const ms = performance.now() - t;
    times.push(ms);
    if (ms > slowest.ms) Object.assign(slowest, { ms, kind: input.kind });
  }
  const integrity = db.prepare('PRAGMA integrity_check').pluck().get();
  db.close();
  rmSync(dir, { recursive: true, force: true });

  const row = (label: string, f: (xs: number[]) => number) => [label, fmtMs(f(times)), fmtMs(f(baseTimes)), fmtRatio(f(times) / f(baseTimes))];
  console.log(`\nfuzz — ${INPUTS.toLocaleString('en')} seeded hostile inputs through the engine into SQLite (big ones ${BIG_MB} MB)`);
  console.log(
    table(
      ['per input', 'engine', 'baseline (1 regex)', 'ratio'],
      [row('median', median), row('p99', (xs) => percentile(xs, 99)), row('max', (xs) => Math.max(...xs))],
    ),
  );
  console.log(`crashes: ${crashes.length}; slowest: ${slowest.kind} (${fmtMs(slowest.ms)}); integrity_check: ${integrity}`);
  for (const c of crashes.slice(0, 10)) console.log(`  ${c}`);

  const failures = [
    ...(crashes.length ? [`${crashes.length} inputs crashed the engine`] : []),
    ...(slowest.ms > LIMIT_MS ? [`${slowest.kind} took ${fmtMs(slowest.ms)}`] : []),
    ...(integrity !== 'ok' ? [`integrity_check: ${String(integrity)}`] : []),
  ];
  return {
    name: 'fuzz',
    failures,
    summary: {
      bench: 'fuzz',
      inputs: INPUTS,
      bigMb: BIG_MB,
      crashes: crashes.length,
      medianMs: round(median(times)),
      p99Ms: round(percentile(times, 99)),
      maxMs: round(slowest.ms),
      slowestKind: slowest.kind,
      baselineP99Ms: round(percentile(baseTimes, 99)),
      integrity,
      ok: failures.length === 0,
      failures,
    },
  };
}
