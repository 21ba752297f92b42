// Evaluates kb conditions over facts with three values: a rule about a fact the paste does not
// mention is neither true nor false. Entries need `true`; steps are skipped only on certainties.
import type { Condition, FactName } from '../kb/schema.ts';
import type { Facts } from './facts/types.ts';

export type Truth = true | false | undefined;

export interface Evaluation {
  truth: Truth;
  /** Fact tests that held: for a true result, an entry's specificity; for an undecided one, how near it came. */
  held: FactName[];
}

/** Compares dotted versions numerically ("0.3.9" < "0.3.10"); missing parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/).map((x) => parseInt(x, 10) || 0);
  const pb = b.split(/[.+-]/).map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

/** The operators of a fact test (a leaf has one). */
const OPERATORS = ['known', 'has', 'hasAny', 'is', 'in', 'lt', 'gte', 'versionLt', 'versionGte'] as const;

/**
 * A condition in one shape for every kind and operator. The kb's conditions come in as many
 * shapes as they have keys, and reading which keys a test has (at every test of every paste)
 * cost more than the tests themselves.
 */
class Compiled {
  constructor(
    readonly kind: 'fact' | 'all' | 'any' | 'not',
    readonly parts: readonly Compiled[],
    readonly fact?: FactName,
    readonly op?: (typeof OPERATORS)[number],
    readonly arg?: unknown,
  ) {}
}

function compile(c: Condition): Compiled {
  if ('fact' in c) {
    const op = OPERATORS.find((name) => c[name] !== undefined);
    return new Compiled('fact', [], c.fact, op, op && c[op]);
  }
  if ('all' in c) return new Compiled('all', c.all.map(compile));
  if ('any' in c) return new Compiled('any', c.any.map(compile));
  return new Compiled('not', [compile(c.not)]);
}

const compiled = new WeakMap<Condition, Compiled>();

/** `c` in one shape, made once per condition. */
function compiledOf(c: Condition): Compiled {
  let out = compiled.get(c);
  if (!out) compiled.set(c, (out = compile(c)));
  return out;
}

function leaf(c: Compiled, facts: Facts): Truth {
  const value = (facts as unknown as Record<string, unknown>)[c.fact!];
  const present = Array.isArray(value) ? value.length > 0 : value !== undefined;
  switch (c.op) {
    case 'known':
      return c.arg === present;
    case 'has':
      return Array.isArray(value) ? value.includes(c.arg) : undefined;
    case 'hasAny':
      return Array.isArray(value) ? (c.arg as string[]).some((v) => value.includes(v)) : undefined;
  }
  if (!present) return undefined;
  switch (c.op) {
    case 'is':
      return value === c.arg;
    case 'in':
      return (c.arg as unknown[]).includes(value);
    case 'lt':
      return typeof value === 'number' ? value < (c.arg as number) : undefined;
    case 'gte':
      return typeof value === 'number' ? value >= (c.arg as number) : undefined;
    case 'versionLt':
      return typeof value === 'string' ? compareVersions(value, c.arg as string) < 0 : undefined;
    case 'versionGte':
      return typeof value === 'string' ? compareVersions(value, c.arg as string) >= 0 : undefined;
  }
  return undefined;
}

export function evaluate(c: Condition, facts: Facts): Evaluation {
  const held: FactName[] = [];
  return { truth: test(compiledOf(c), facts, held), held };
}

/**
 * `c` as a function of the facts: its truth, with the fact tests that held appended to `held`
 * (nothing appended for a false result): one array for the whole tree, where a result per node
 * would allocate its own (and one for many conditions in turn, for a caller that keeps only a
 * few of their results). Made ready once, for a caller that tests the same condition on every paste.
 */
export function tester(c: Condition): (facts: Facts, held: FactName[]) => Truth {
  const ready = compiledOf(c);
  return (facts, held) => test(ready, facts, held);
}

function test(c: Compiled, facts: Facts, held: FactName[]): Truth {
  if (c.kind === 'fact') {
    const truth = leaf(c, facts);
    if (truth === true) held.push(c.fact!);
    return truth;
  }
  const mark = held.length;
  if (c.kind === 'not') {
    const inner = test(c.parts[0]!, facts, held);
    drop(held, mark);
    return inner === undefined ? undefined : !inner;
  }
  if (c.kind === 'all') {
    let undecided = false;
    for (const part of c.parts) {
      const p = test(part, facts, held);
      if (p === false) {
        drop(held, mark);
        return false;
      }
      // Undecided: still report what held, so a near candidate can be told from an unrelated one.
      if (p === undefined) undecided = true;
    }
    return undecided ? undefined : true;
  }
  let hit = false;
  let undecided = false;
  for (const part of c.parts) {
    const before = held.length;
    const p = test(part, facts, held);
    if (p === true) hit = true;
    else {
      drop(held, before);
      if (p === undefined) undecided = true;
    }
  }
  if (hit) return true;
  drop(held, mark);
  return undecided ? undefined : false;
}

/** Cuts `held` back to `length`; setting an array's length is a slow call, most often not needed. */
function drop(held: FactName[], length: number): void {
  if (held.length > length) held.length = length;
}
