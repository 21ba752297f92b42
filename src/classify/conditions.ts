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

/** Shared by every result that holds nothing (read, never changed). */
const NONE: FactName[] = [];

export function evaluate(c: Condition, facts: Facts): Evaluation {
  if ('fact' in c) {
    const truth = leaf(c, facts);
    return { truth, held: truth === true ? [c.fact] : NONE };
  }
  if ('not' in c) {
    const inner = evaluate(c.not, facts);
    return { truth: inner.truth === undefined ? undefined : !inner.truth, held: NONE };
  }
  if ('all' in c) {
    let undecided = false;
    const held: FactName[] = [];
    for (const part of c.all) {
      const p = evaluate(part, facts);
      if (p.truth === false) return { truth: false, held: NONE };
      if (p.truth === undefined) undecided = true;
      held.push(...p.held);
    }
    // Undecided: still report what held, so a near candidate can be told from an unrelated one.
    return { truth: undecided ? undefined : true, held };
  }
  let hit = false;
  let undecided = false;
  const held: FactName[] = [];
  for (const part of c.any) {
    const p = evaluate(part, facts);
    if (p.truth === true) {
      hit = true;
      held.push(...p.held);
    } else if (p.truth === undefined) undecided = true;
  }
  if (hit) return { truth: true, held };
  return { truth: undecided ? undefined : false, held: NONE };
}
