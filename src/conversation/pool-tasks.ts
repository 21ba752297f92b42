// What a pool worker runs (see pool.ts): the kb loaded once per worker, then one task per call.
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { createClassifier } from '../classify/classify.ts';
import { loadKb } from '../kb/load.ts';
import { wipeFile } from '../store/cases.ts';
import type { Prepared } from '../ingest/image.ts';
import type { WireDiagnosis } from './pool.ts';
import { shownDiagnosis } from './storable.ts';

export { factsForStorage as storedFacts, storedPaste } from './storable.ts';

// The event loop acknowledges; the workers can wait a little. Where a thread has a priority of its
// own (Linux, where setpriority on "process 0" is the calling thread), they give way to it for a core.
if (process.platform === 'linux') setPriority(10);

const classifier = createClassifier(loadKb((workerData as { kbDir: string }).kbDir));

export async function classify(text: string): Promise<WireDiagnosis> {
  const d = await shownDiagnosis(classifier(text));
  return { ...d, entry: d.entry.id };
}

/** A screenshot decoded, scaled and measured for OCR (image.ts): seconds of pixel loops for a large image. */
export async function prepareForOcr(image: Uint8Array): Promise<Prepared> {
  return (await import('../ingest/image.ts')).prepareForOcr(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
}

/** The file scrubbed through a connection of the worker's own: the event loop's stays free to read and write (see wipeFile). */
export const wipe = (file: string): Promise<boolean> => wipeFile(file);
