// Reads kb/ from disk and validates every file against the schema; everything downstream receives
// the validated, cross-checked `Kb` value. The running bot and CLI open it through cache.ts.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join, relative } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { Entry, FACT_NAMES, Flag, KnownIssue, knownIssueLead, Launch, Lead, ModelFamily, ReplyRule, Signature, StageHints, Step } from './schema.ts';
import { checkPattern } from './pattern-check.ts';
import { DEFAULT_KB_DIR } from './dir.ts';


export interface Kb {
  entries: Entry[];
  steps: Map<string, Step>;
  signatures: Signature[];
  stages: StageHints;
  flags: Map<string, Flag>;
  launch: Launch;
  /** Signals that put one kind of fix first, in the order they are tried: known issues (kb/known-issues.yaml), then kb/leads.yaml. */
  leads: Lead[];
  /** How typed replies at a step are read, in the order they are tried. */
  replies: ReplyRule[];
  /** Model families and what their weights take, for steps that quote the model's size. */
  models: ModelFamily[];
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
  const replies = readList('replies.yaml', ReplyRule);
  const models = readList('models.yaml', ModelFamily);
  const leads = [...readList('known-issues.yaml', KnownIssue).map(({ file, value }) => ({ file, value: knownIssueLead(value) })), ...readList('leads.yaml', Lead)];
  const readOne = <S extends z.ZodType>(name: string, schema: S): z.infer<S> | undefined => {
    const file = join(dir, name);
    if (existsSync(file)) return check(schema, file, readYaml(file));
    problems.push({ file: rel(file), field: '(file)', reason: 'missing' });
    return undefined;
  };
  const stagesFile = join(dir, 'stages.yaml');
  const stages = readOne('stages.yaml', StageHints);
  const launchFile = join(dir, 'launch.yaml');
  const launch = readOne('launch.yaml', Launch);

  // Cross-references the schema alone cannot see.
  const stepIds = new Set(steps.map((s) => s.value.id));
  for (const { file, value } of entries) {
    value.steps.forEach((id, i) => {
      if (!stepIds.has(id)) problems.push({ file: rel(file), field: `steps.${i}`, reason: `no step "${id}" in kb/steps/` });
    });
  }
  leads.forEach(({ file, value }, l) =>
    value.steps.forEach((id, i) => {
      if (!stepIds.has(id)) problems.push({ file: rel(file), field: `${l}.steps.${i}`, reason: `no step "${id}" in kb/steps/` });
    }),
  );
  // Step texts may quote facts ("{workflowWidth}"); a misspelt placeholder would reach users raw.
  const factNames = new Set<string>(FACT_NAMES);
  for (const { file, value } of steps) {
    value.do.forEach((v, i) =>
      (Object.keys(v.text) as (keyof typeof v.text)[]).forEach((lang) => {
        for (const m of v.text[lang].matchAll(/\{(\w{1,40})\}/g)) {
          if (!factNames.has(m[1]!)) problems.push({ file: rel(file), field: `do.${i}.text.${lang}`, reason: `{${m[1]}} is not a fact name` });
        }
      }),
    );
  }
  // Launch lines are rendered from flags.yaml's facts (arity, groups, builds), so every flag a step
  // puts on or takes off a line must be catalogued there, written as a command line would have it.
  const catalogue = new Map(flags.map((f) => [f.value.flag, f.value]));
  const usable = (flag: string) => catalogue.has(flag) && !['never', 'removed'].includes(catalogue.get(flag)!.status);
  for (const { file, value } of steps) {
    value.do.forEach((v, i) => {
      const field = `do.${i}`;
      for (const [cmd, text] of [['portable', v.portable], ['manual', v.manual]] as const) {
        if (text && /\bmain\.py\b/.test(text)) problems.push({ file: rel(file), field: `${field}.${cmd}`, reason: 'a launch line belongs in `launch` (rendered from the user\'s own line), not in a command' });
      }
      if (!v.launch) return;
      v.launch.remove.forEach((flag, j) => {
        if (flag.startsWith('--') && !catalogue.has(flag)) problems.push({ file: rel(file), field: `${field}.launch.remove.${j}`, reason: `${flag} is not in flags.yaml` });
      });
      const add = v.launch.add;
      if (add.length && !add[0]!.startsWith('--')) problems.push({ file: rel(file), field: `${field}.launch.add.0`, reason: 'must start with a flag' });
      add.forEach((token, j) => {
        if (!token.startsWith('--')) return;
        if (!usable(token)) {
          problems.push({ file: rel(file), field: `${field}.launch.add.${j}`, reason: `${token} is not a flag ComfyUI has (see flags.yaml)` });
          return;
        }
        let values = 0;
        while (j + 1 + values < add.length && !add[j + 1 + values]!.startsWith('--')) values++;
        const arg = catalogue.get(token)!.arg;
        const fits = arg === 'none' ? values === 0 : arg === 'one' ? values === 1 : arg === 'optional' ? values <= 1 : true;
        if (!fits) problems.push({ file: rel(file), field: `${field}.launch.add.${j}`, reason: `${token} takes ${arg === 'none' ? 'no value' : arg === 'one' ? 'one value' : 'at most one value'}, not ${values}` });
      });
    });
  }
  if (launch) {
    for (const [name, script] of [['portable.nvidia', launch.portable.nvidia], ['portable.amd', launch.portable.amd], ['zluda', launch.zluda], ['manual', launch.manual]] as const) {
      script.args?.forEach((flag, j) => {
        if (!usable(flag)) problems.push({ file: rel(launchFile), field: `${name}.args.${j}`, reason: `${flag} is not a flag ComfyUI has (see flags.yaml)` });
      });
    }
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
  replies.forEach(({ file, value }, r) =>
    value.patterns.forEach((p, i) => {
      const why = checkPattern(p);
      if (why) problems.push({ file: rel(file), field: `${r}.patterns.${i}`, reason: why });
    }),
  );
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
    flags: catalogue,
    launch: launch!,
    leads: leads.map((l) => l.value),
    replies: replies.map((r) => r.value),
    models: models.map((m) => m.value),
    version: hash.digest('hex').slice(0, 12),
  };
}
