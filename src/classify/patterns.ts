// kb patterns are authored by people and run over untrusted pastes, so only a subset of regular
// expressions that cannot backtrack catastrophically is allowed: no nested quantifiers, no
// backreferences or lookarounds, and no unbounded wildcard runs (use [^…]{0,N} with a bound).
import { setFlagsFromString } from 'node:v8';

// Defence in depth: should a pattern that slipped past the checks below still backtrack, V8
// switches that match to its linear-time engine instead of hanging the process. The threshold is
// high because that engine is ~1000x slower: ordinary patterns scanning a long text add up many
// small backtracks and must stay on the fast engine; a catastrophic one passes it in milliseconds.
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
setFlagsFromString('--regexp-backtracks-before-fallback=10000000');

/** Why a pattern is unsafe or invalid, or undefined when it is fine. */
export function checkPatternSafety(source: string): string | undefined {
  try {
    new RegExp(source, 'i');
  } catch (e) {
    return `not a valid regular expression: ${(e as Error).message}`;
  }
  if (/\\[1-9]|\\k</.test(source)) return 'backreferences are not allowed';
  if (/\(\?<?[=!]/.test(source)) return 'lookarounds are not allowed';
  if (/(\.|\\s|\\S|\\w|\\W|\[\^[^\]]*\])[*+]/.test(source)) return 'unbounded repetition of a broad class; bound it, e.g. [^\\n]{0,80} or \\s{0,4}';
  if (/\{\d*,\}/.test(source)) return 'open-ended {n,} repetition is not allowed; give an upper bound';
  // A quantified group that itself contains a quantifier: (a+)+, (\d{1,3}[,.]?)* …
  let depth = 0;
  const quantifiedAt: boolean[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      const end = source.indexOf(']', i + 1);
      i = end < 0 ? source.length : end;
      continue;
    }
    if (c === '(') {
      depth++;
      quantifiedAt[depth] = false;
    } else if (c === ')') {
      const inner = quantifiedAt[depth];
      depth--;
      const next = source[i + 1];
      if (inner && (next === '*' || next === '+' || next === '{')) return 'nested quantifiers are not allowed';
      if (inner && depth > 0) quantifiedAt[depth] = true;
    } else if ((c === '*' || c === '+' || c === '?' || c === '{') && depth > 0) {
      quantifiedAt[depth] = true;
    }
  }
  return undefined;
}

/** Compiles a vetted kb pattern: case-insensitive, one line at a time. */
export function compilePattern(source: string): RegExp {
  return new RegExp(source, 'i');
}
