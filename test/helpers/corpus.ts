import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/**
 * The batches in the order they came: the two the project was given, then those it gathered
 * itself, read off the fixture files (corpus-harvest.jsonl, then corpus-harvestN.jsonl by N), so
 * a batch added is read without a count to keep in step.
 */
const BATCHES = [
  'dev',
  'dev2',
  ...readdirSync(FIXTURES)
    .map((f) => /^corpus-harvest(\d*)\.jsonl$/.exec(f)?.[1])
    .filter((n): n is string => n !== undefined)
    .sort((a, b) => Number(a || 1) - Number(b || 1))
    .map((n) => `harvest${n}`),
];
type Batch = string;

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
export const batchesUpTo = (last: Batch): Sample[] => {
  const end = BATCHES.indexOf(last);
  if (end < 0) throw new Error(`no corpus batch ${last}`);
  return corpus.filter((s) => BATCHES.indexOf(s.batch) <= end);
};

export const sample = (id: string): Sample => {
  const s = corpus.find((x) => x.id === id);
  if (!s) throw new Error(`no corpus sample ${id}`);
  return s;
};

/** Samples scored strictly: a decided label and the exception line inside the excerpt. */
export const strict = corpus.filter((s) => s.category !== 'ambiguous' && s.error_line_in_text !== false);
