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

function leaf(c: Extract<Condition, { fact: FactName }>, facts: Facts): Truth {
  const value = (facts as unknown as Record<string, unknown>)[c.fact];
  const present = Array.isArray(value) ? value.length > 0 : value !== undefined;
  if (c.known !== undefined) return c.known === present;
  if (Array.isArray(value)) {
    if (c.has !== undefined) return value.includes(c.has);
    if (c.hasAny !== undefined) return c.hasAny.some((v) => value.includes(v));
  }
  if (!present) return undefined;
  if (c.is !== undefined) return value === c.is;
  if (c.in !== undefined) return c.in.includes(value as string | number | boolean);
  if (c.lt !== undefined) return typeof value === 'number' ? value < c.lt : undefined;
  if (c.gte !== undefined) return typeof value === 'number' ? value >= c.gte : undefined;
  if (c.versionLt !== undefined) return typeof value === 'string' ? compareVersions(value, c.versionLt) < 0 : undefined;
  if (c.versionGte !== undefined) return typeof value === 'string' ? compareVersions(value, c.versionGte) >= 0 : undefined;
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
  if ('fact' in c) {
    const truth = leaf(c, facts);
    if (truth === true) held.push(c.fact);
    return truth;
  }
  const mark = held.length;
  if ('not' in c) {
    const inner = run(c.not, facts, held);
    drop(held, mark);
    return inner === undefined ? undefined : !inner;
  }
  if ('all' in c) {
    let undecided = false;
    for (const part of c.all) {
      const p = run(part, facts, held);
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
  for (const part of c.any) {
    const before = held.length;
    const p = run(part, facts, held);
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
