// `npm run bench [-- name...]`: runs every bench in the list below (or only those named), prints their
// tables as they go, then one JSON line per bench for scripts. Exits 1 if any bench missed a target or crashed.
import type { BenchResult } from './lib/measure.ts';
import { benchClassifier } from './classifier.ts';
import { benchStore } from './store.ts';
import { benchOcr } from './ocr.ts';
import { benchFuzz } from './fuzz.ts';
import { benchStart } from './start.ts';
import { benchChatLoad } from './chat-load.ts';
import { benchAdaptive } from './adaptive.ts';
import { benchPlanRecall } from './plan-recall.ts';
import { benchForget } from './forget.ts';
import { benchFootprint } from './footprint.ts';

/** Add a bench here: an async function returning a BenchResult. */
const BENCHES: { name: string; run: () => Promise<BenchResult> }[] = [
  { name: 'classifier', run: benchClassifier },
  { name: 'store', run: benchStore },
  { name: 'ocr', run: benchOcr },
  { name: 'fuzz', run: benchFuzz },
  { name: 'start', run: benchStart },
  { name: 'chat-load', run: benchChatLoad },
  { name: 'adaptive', run: benchAdaptive },
  { name: 'plan-recall', run: benchPlanRecall },
  { name: 'forget', run: benchForget },
  { name: 'footprint', run: benchFootprint },
];

/** `npm run bench -- store` runs only the benches named. */
const only = process.argv.slice(2);
const unknown = only.filter((n) => !BENCHES.some((b) => b.name === n));
if (unknown.length) throw new Error(`no bench named ${unknown.join(', ')} (there are: ${BENCHES.map((b) => b.name).join(', ')})`);

const results: BenchResult[] = [];
let failed = false;
for (const bench of BENCHES.filter((b) => !only.length || only.includes(b.name))) {
  try {
    const result = await bench.run();
    results.push(result);
    if (result.failures.length) failed = true;
  } catch (e) {
    failed = true;
    console.error(`\nFAIL bench ${bench.name} crashed: ${(e as Error).stack ?? e}`);
    results.push({ name: bench.name, failures: ['crashed'], summary: { bench: bench.name, ok: false, error: String((e as Error).message ?? e) } });
  }
}

console.log(`\n${failed ? 'FAIL' : 'ok'}: ${results.map((r) => `${r.name} ${r.failures.length ? 'FAIL' : 'ok'}`).join(', ')}`);
for (const r of results) console.log(JSON.stringify(r.summary));
process.exitCode = failed ? 1 : 0;
