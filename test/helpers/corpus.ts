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
}

export const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

export const corpus: Sample[] = readFileSync(fixture('corpus-dev.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Sample);

export const sample = (id: string): Sample => {
  const s = corpus.find((x) => x.id === id);
  if (!s) throw new Error(`no corpus sample ${id}`);
  return s;
};

/** Samples scored strictly: a decided label and the exception line inside the excerpt. */
export const strict = corpus.filter((s) => s.category !== 'ambiguous' && s.error_line_in_text !== false);
