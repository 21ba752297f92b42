// Start bench: `comfyoom diagnose one.log` as a user runs it (the installed bin, a fresh process
// each time), against `node -e ""` measured in the same run. Median wall time of 10 runs each.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchResult, fmtMs, fmtRatio, median, round, table } from './lib/measure.ts';

const RUNS = 10;
/** The target: within 3x of starting Node itself. */
const MAX_RATIO = 3;
const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'comfyoom.mjs');

function wallMs(args: string[]): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr.toString().slice(-500)}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

export async function benchStart(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'start-bench-'));
  const log = join(dir, 'one.log');
  writeFileSync(log, 'Requested to load SDXL\n  0%|          | 0/20 [00:00<?, ?it/s]\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n');
  // The first run builds what later runs reuse (the kb cache): a user's second run is the common one.
  wallMs([bin, 'diagnose', log]);
  const node: number[] = [];
  const cli: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    node.push(wallMs(['-e', '']));
    cli.push(wallMs([bin, 'diagnose', log]));
  }
  rmSync(dir, { recursive: true, force: true });
  const ratio = median(cli) / median(node);
  console.log(`\nstart — wall time of a fresh process, median of ${RUNS} runs`);
  console.log(table(['', 'comfyoom diagnose one.log', 'node -e ""', 'ratio'], [['median', fmtMs(median(cli)), fmtMs(median(node)), fmtRatio(ratio)]]));
  const failures = ratio > MAX_RATIO ? [`diagnose starts in ${fmtRatio(ratio)} of node's own start (target ${MAX_RATIO}x)`] : [];
  return { name: 'start', failures, summary: { bench: 'start', runs: RUNS, diagnoseMs: round(median(cli)), nodeMs: round(median(node)), ratio: round(ratio), ok: !failures.length, failures } };
}
