// What a pool worker runs (see pool.ts): the kb loaded once per worker, then one task per call.
import { workerData } from 'node:worker_threads';
import { createClassifier } from '../classify/classify.ts';
import { loadKb } from '../kb/load.ts';
import type { WireDiagnosis } from './pool.ts';

const classifier = createClassifier(loadKb((workerData as { kbDir: string }).kbDir));

export function classify(text: string): WireDiagnosis {
  const d = classifier(text);
  return { ...d, entry: d.entry.id };
}
