// Reads kb/ from disk and validates every file against the schema. This is the only I/O of the
// knowledge base; everything downstream receives the validated, cross-checked `Kb` value.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import { Entry, FACT_NAMES, Flag, Signature, StageHints, Step } from './schema.ts';
import { checkPattern } from '../classify/patterns.ts';

export const DEFAULT_KB_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'kb');

export interface Kb {
  entries: Entry[];
  steps: Map<string, Step>;
  signatures: Signature[];
  stages: StageHints;
  flags: Map<string, Flag>;
  /** A short hash of every kb file, stored with each case so stats can tell kb versions apart. */
  version: string;
}

/** One problem found in kb/: which file, which field, and why. */
export interface KbProblem {
  file: string;
  field: string;
  reason: string;
}

export class KbError extends Error {
  constructor(readonly problems: KbProblem[]) {
    super(problems.map((p) => `${p.file}: ${p.field}: ${p.reason}`).join('\n'));
    this.name = 'KbError';
  }
}

interface Parsed<T> {
  file: string;
  value: T;
}

/** Loads and validates kb/, collecting every problem before failing so one lint run shows them all. */
export function loadKb(dir: string = DEFAULT_KB_DIR): Kb {
  const problems: KbProblem[] = [];
  const hash = createHash('sha256');
  const rel = (f: string) => relative(join(dir, '..'), f) || f;

  const readYaml = (file: string): unknown => {
    const raw = readFileSync(file, 'utf8');
    hash.update(basename(file)).update(raw);
    try {
      return parse(raw);
    } catch (e) {
      problems.push({ file: rel(file), field: '(file)', reason: `not valid YAML: ${(e as Error).message.split('\n')[0]}` });
      return undefined;
    }
  };

  const check = <S extends z.ZodType>(schema: S, file: string, data: unknown, prefix = ''): z.infer<S> | undefined => {
    const r = schema.safeParse(data);
    if (r.success) return r.data;
    for (const issue of r.error.issues) {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
      problems.push({ file: rel(file), field: path || '(root)', reason: issue.message });
    }
    return undefined;
  };

  const readDir = <S extends z.ZodType>(sub: string, schema: S): Parsed<z.infer<S>>[] => {
    const folder = join(dir, sub);
    if (!existsSync(folder)) {
      problems.push({ file: rel(folder), field: '(folder)', reason: 'missing' });
      return [];
    }
    const out: Parsed<z.infer<S>>[] = [];
    for (const name of readdirSync(folder).filter((n) => /\.ya?ml$/.test(n)).sort()) {
      const file = join(folder, name);
      const data = readYaml(file);
      if (data === undefined) continue;
      const value = check(schema, file, data);
      if (value === undefined) continue;
      const id = (value as { id: string }).id;
      if (id !== name.replace(/\.ya?ml$/, '')) {
        problems.push({ file: rel(file), field: 'id', reason: `must match the file name (${name.replace(/\.ya?ml$/, '')})` });
      }
      out.push({ file, value });
    }
    return out;
  };

  const readList = <S extends z.ZodType>(name: string, schema: S): Parsed<z.infer<S>>[] => {
    const file = join(dir, name);
    if (!existsSync(file)) {
      problems.push({ file: rel(file), field: '(file)', reason: 'missing' });
      return [];
    }
    const data = readYaml(file);
    if (!Array.isArray(data)) {
      if (data !== undefined) problems.push({ file: rel(file), field: '(root)', reason: 'must be a list' });
      return [];
    }
    return data.flatMap((item, i) => {
      const value = check(schema, file, item, String(i));
      return value === undefined ? [] : [{ file, value }];
    });
  };

  const steps = readDir('steps', Step);
  const entries = readDir('entries', Entry);
  const signatures = readList('signatures.yaml', Signature);
  const flags = readList('flags.yaml', Flag);
  const stagesFile = join(dir, 'stages.yaml');
  const stages = existsSync(stagesFile) ? check(StageHints, stagesFile, readYaml(stagesFile)) : undefined;
  if (!existsSync(stagesFile)) problems.push({ file: rel(stagesFile), field: '(file)', reason: 'missing' });

  // Cross-references the schema alone cannot see.
  const stepIds = new Set(steps.map((s) => s.value.id));
  for (const { file, value } of entries) {
    value.steps.forEach((id, i) => {
      if (!stepIds.has(id)) problems.push({ file: rel(file), field: `steps.${i}`, reason: `no step "${id}" in kb/steps/` });
    });
  }
  // Step texts may quote facts ("{workflowWidth}"); a misspelt placeholder would reach users raw.
  const factNames = new Set<string>(FACT_NAMES);
  for (const { file, value } of steps) {
    value.do.forEach((v, i) =>
      (['en', 'zh'] as const).forEach((lang) => {
        for (const m of v.text[lang].matchAll(/\{(\w{1,40})\}/g)) {
          if (!factNames.has(m[1]!)) problems.push({ file: rel(file), field: `do.${i}.text.${lang}`, reason: `{${m[1]}} is not a fact name` });
        }
      }),
    );
  }
  const seen = new Map<string, string>();
  for (const { file, value } of signatures) {
    if (seen.has(value.id)) problems.push({ file: rel(file), field: value.id, reason: 'duplicate signature id' });
    seen.set(value.id, file);
    value.patterns.forEach((p, i) => {
      const why = checkPattern(p);
      if (why) problems.push({ file: rel(file), field: `${value.id}.patterns.${i}`, reason: why });
    });
  }
  stages?.stages.forEach((s, i) =>
    s.frames.forEach((f, j) => {
      if (f.length < 3) problems.push({ file: rel(stagesFile), field: `stages.${i}.frames.${j}`, reason: 'too short to be specific' });
    }),
  );

  if (problems.length) throw new KbError(problems);
  return {
    entries: entries.map((e) => e.value),
    steps: new Map(steps.map((s) => [s.value.id, s.value])),
    signatures: signatures.map((s) => s.value),
    stages: stages!,
    flags: new Map(flags.map((f) => [f.value.flag, f.value])),
    version: hash.digest('hex').slice(0, 12),
  };
}
