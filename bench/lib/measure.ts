// Tiny timing helpers shared by the benches: run a function a few times, summarise, format.
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';

/** What every bench returns to bench/run.ts: its JSON summary and any targets it missed. */
export interface BenchResult {
  name: string;
  /** Printed as one JSON line at the end of the run, for scripts. */
  summary: Record<string, unknown>;
  /** Human-readable misses (e.g. "x took 1.3 s"); any entry makes the run exit with code 1. */
  failures: string[];
}

export const MB = 1_000_000;

/** Milliseconds one call of fn takes. */
export function timeOnce(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Calls fn `runs` times and returns each run's milliseconds. */
export function timeRuns(fn: () => unknown, runs: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) out.push(timeOnce(fn));
  return out;
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A full garbage collection, or undefined when the process was not started with --expose-gc.
 * V8 only exposes `gc` to contexts created after the flag is set, hence the fresh vm context.
 */
export function getGc(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return g;
  try {
    setFlagsFromString('--expose-gc');
    const fresh = runInNewContext('gc') as unknown;
    return typeof fresh === 'function' ? (fresh as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/** Rounds to 4 significant digits (for display and JSON); sub-microsecond figures stay visible. */
export function round(n: number): number {
  return Number.isFinite(n) && n !== 0 ? Number(n.toPrecision(4)) : n;
}

export const fmtMs = (ms: number): string =>
  ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 1 ? `${round(ms)} ms` : `${round(ms * 1000)} µs`;
export const fmtRatio = (r: number): string => `${r >= 100 ? r.toFixed(0) : r.toFixed(2)}x`;
export const fmtBytes = (b: number): string =>
  Math.abs(b) >= MB ? `${(b / MB).toFixed(2)} MB` : Math.abs(b) >= 1000 ? `${(b / 1000).toFixed(1)} kB` : `${b} B`;

/** A plain-text table; numeric-looking cells are right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = /^[-+]?[\d.,]+(?:\s?\S{1,4})?$/;
  const line = (cells: string[]) =>
    cells.map((c, i) => (numeric.test(c) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
