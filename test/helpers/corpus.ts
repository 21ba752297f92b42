import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
  batch: 'dev' | 'dev2' | 'harvest' | 'harvest2' | 'harvest3' | 'harvest4' | 'harvest5' | 'harvest6' | 'harvest7' | 'harvest8' | 'harvest9' | 'harvest10' | 'harvest11' | 'harvest12' | 'harvest13' | 'harvest14';
}

export const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

const load = (batch: Sample['batch']): Sample[] =>
  readFileSync(fixture(`corpus-${batch}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ ...(JSON.parse(l) as Omit<Sample, 'batch'>), batch }));

/** Every batch of real pastes: the two the project was given and those it gathered itself. */
export const corpus: Sample[] = [...load('dev'), ...load('dev2'), ...load('harvest'), ...load('harvest2'), ...load('harvest3'), ...load('harvest4'), ...load('harvest5'), ...load('harvest6'), ...load('harvest7'), ...load('harvest8'), ...load('harvest9'), ...load('harvest10'), ...load('harvest11'), ...load('harvest12'), ...load('harvest13'), ...load('harvest14')];

export const sample = (id: string): Sample => {
  const s = corpus.find((x) => x.id === id);
  if (!s) throw new Error(`no corpus sample ${id}`);
  return s;
};

/** Samples scored strictly: a decided label and the exception line inside the excerpt. */
export const strict = corpus.filter((s) => s.category !== 'ambiguous' && s.error_line_in_text !== false);
