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

/** The operators of a fact test, and their numbers (for a switch) in this order. */
const OPERATORS = ['known', 'has', 'hasAny', 'is', 'in', 'lt', 'gte', 'versionLt', 'versionGte'] as const;
const enum Op {
  Known,
  Has,
  HasAny,
  Is,
  In,
  Lt,
  Gte,
  VersionLt,
  VersionGte,
  None,
}

/**
 * A condition in one shape for every kind and operator. The kb's conditions come in as many
 * shapes as they have keys, and reading which keys a test has (at every test of every paste)
 * cost more than the tests themselves.
 */
class Compiled {
  constructor(
    /** 0 a fact test, 1 all, 2 any, 3 not. */
    readonly kind: number,
    readonly fact: FactName | '',
    readonly op: Op,
    readonly arg: unknown,
    readonly parts: readonly Compiled[],
  ) {}
}

function compile(c: Condition): Compiled {
  if ('fact' in c) {
    const op = OPERATORS.findIndex((name) => c[name] !== undefined);
    const arg = op < 0 ? undefined : c[OPERATORS[op]!];
    return new Compiled(0, c.fact, op < 0 ? Op.None : op, arg, []);
  }
  if ('all' in c) return new Compiled(1, '', Op.None, undefined, c.all.map(compile));
  if ('any' in c) return new Compiled(2, '', Op.None, undefined, c.any.map(compile));
  return new Compiled(3, '', Op.None, undefined, [compile(c.not)]);
}

const compiled = new WeakMap<Condition, Compiled>();

/** `c` in one shape, made once per condition. */
function compiledOf(c: Condition): Compiled {
  let out = compiled.get(c);
  if (!out) compiled.set(c, (out = compile(c)));
  return out;
}

function leaf(c: Compiled, facts: Facts): Truth {
  const value = (facts as unknown as Record<string, unknown>)[c.fact];
  const present = Array.isArray(value) ? value.length > 0 : value !== undefined;
  switch (c.op) {
    case Op.Known:
      return c.arg === present;
    case Op.Has:
      return Array.isArray(value) ? value.includes(c.arg) : undefined;
    case Op.HasAny:
      return Array.isArray(value) ? (c.arg as string[]).some((v) => value.includes(v)) : undefined;
  }
  if (!present) return undefined;
  switch (c.op) {
    case Op.Is:
      return value === c.arg;
    case Op.In:
      return (c.arg as unknown[]).includes(value);
    case Op.Lt:
      return typeof value === 'number' ? value < (c.arg as number) : undefined;
    case Op.Gte:
      return typeof value === 'number' ? value >= (c.arg as number) : undefined;
    case Op.VersionLt:
      return typeof value === 'string' ? compareVersions(value, c.arg as string) < 0 : undefined;
    case Op.VersionGte:
      return typeof value === 'string' ? compareVersions(value, c.arg as string) >= 0 : undefined;
  }
  return undefined;
}

export function evaluate(c: Condition, facts: Facts): Evaluation {
  const held: FactName[] = [];
  return { truth: run(c, facts, held), held };
}

/**
 * `c`'s truth, with the fact tests that held appended to `held` (nothing appended for a false
 * result): one array for the whole tree, where a result per node would allocate its own (and
 * one for many conditions in turn, for a caller that keeps only a few of their results).
 */
export function run(c: Condition, facts: Facts, held: FactName[]): Truth {
  return test(compiledOf(c), facts, held);
}

/** `run` for one condition, made ready once: for a caller that tests the same conditions on every paste. */
export function tester(c: Condition): (facts: Facts, held: FactName[]) => Truth {
  const ready = compiledOf(c);
  return (facts, held) => test(ready, facts, held);
}

function test(c: Compiled, facts: Facts, held: FactName[]): Truth {
  if (c.kind === 0) {
    const truth = leaf(c, facts);
    if (truth === true) held.push(c.fact as FactName);
    return truth;
  }
  const mark = held.length;
  if (c.kind === 3) {
    const inner = test(c.parts[0]!, facts, held);
    drop(held, mark);
    return inner === undefined ? undefined : !inner;
  }
  if (c.kind === 1) {
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
