import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The batches in the order they came: the two the project was given, then those it gathered itself. */
const BATCHES = ['dev', 'dev2', 'harvest', ...Array.from({ length: 42 }, (_, i) => `harvest${i + 2}` as const)] as const;
type Batch = (typeof BATCHES)[number];

export interface Sample {
  id: string;
  source: string;
  app: string;
  category: string;
  alt_categories: string[];
  error_line_in_text: boolean;
  text: string;
  /**
   * Which batch the sample came in: `dev` was tuned on, the others were scored before any rule
   * was changed for them (see test/fixtures/README.md).
   */
  batch: Batch;
}

export const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

const load = (batch: Sample['batch']): Sample[] =>
  readFileSync(fixture(`corpus-${batch}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ ...(JSON.parse(l) as Omit<Sample, 'batch'>), batch }));

/** Every batch of real pastes. */
export const corpus: Sample[] = BATCHES.flatMap(load);

/**
 * The pastes of the batches up to `last`: for a check whose bar was set on them, so batches added
 * for the classifier later do not move the sample it reads.
 */
export const batchesUpTo = (last: Batch): Sample[] => corpus.filter((s) => BATCHES.indexOf(s.batch) <= BATCHES.indexOf(last));

export const sample = (id: string): Sample => {
  const s = corpus.find((x) => x.id === id);
  if (!s) throw new Error(`no corpus sample ${id}`);
  return s;
};

/** Samples scored strictly: a decided label and the exception line inside the excerpt. */
export const strict = corpus.filter((s) => s.category !== 'ambiguous' && s.error_line_in_text !== false);
