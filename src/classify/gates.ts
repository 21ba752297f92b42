// The project's own per-line patterns, each with the literals one of which every match holds:
// one pass over a paste (literals.ts) finds the lines where each pattern can match at all, and a
// pattern runs on those lines only. Most patterns look for something most pastes never say.
import { requiredLiterals, union } from './literals.ts';

/** A pattern, and the ids of its literals (none: it may match any line; read when an index is first built). */
export interface Gate {
  readonly re: RegExp;
  literals?: readonly number[];
}

const literals: string[] = [];
const ids = new Map<string, number>();
const declared: { gate: Gate; minLength: number }[] = [];

/**
 * `re` with the literals read from its own source; declare gates once, at module level. Two
 * characters still leave out most lines (the one pass costs the same whatever the literals); a
 * pattern whose only fixed text is a character (`%`) may take literals of one.
 */
export function gate(re: RegExp, minLength = 2): Gate {
  const g: Gate = { re };
  declared.push({ gate: g, minLength });
  // Read at once only once an index has asked for the gates' literals; otherwise when one does.
  if (asked) readLiterals();
  return g;
}

/** How many declared gates have had their literals read, and whether an index has asked for them. */
let read = 0;
let asked = false;
function readLiterals(): void {
  for (; read < declared.length; read++) {
    const { gate: g, minLength } = declared[read]!;
    const needed = requiredLiterals(g.re.source, minLength);
    if (!needed) continue;
    g.literals = needed.map((l) => {
      let id = ids.get(l);
      if (id === undefined) ids.set(l, (id = literals.push(l) - 1));
      return id;
    });
  }
}

/** Every gate declared so far and its literals, for the test that each literal is in every line its pattern matches. */
export function declaredGates(): { re: RegExp; literals?: string[] }[] {
  readLiterals();
  return declared.map(({ gate: g }) => ({ re: g.re, ...(g.literals ? { literals: g.literals.map((id) => literals[id]!) } : {}) }));
}

/** The gates' literals so far, in order: an index that starts with them (and goes on with others) can serve GatedLines. */
export function gateLiterals(): readonly string[] {
  asked = true;
  readLiterals();
  return [...literals];
}

/** One paste's lines and, for every gate, the lines where it may match. */
export class GatedLines {
  /** Where each gate literal is; undefined: not looked for, so every line may match any gate. */
  private readonly found?: readonly (number[] | undefined)[];
  private joinedText?: string;
  private allLines?: number[];

  /**
   * `found`: the lines' scan by an index whose first `counted` literals are gateLiterals(), when
   * the caller has one (one pass serves more than the gates). Without it, or with a gate declared
   * since, every line is looked at.
   */
  constructor(
    readonly lines: readonly string[],
    found?: readonly (number[] | undefined)[],
    counted = 0,
  ) {
    if (found && counted === literals.length) this.found = found;
  }

  /** The lines where any of `gates` may match, ascending. */
  linesOf(gates: readonly Gate[]): readonly number[] {
    const found = this.found;
    if (!found) return this.every;
    let lines: readonly number[] | undefined;
    for (const g of gates) {
      if (!g.literals) return this.every;
      for (const id of g.literals) {
        const at = found[id];
        if (at) lines = lines ? union(lines, at) : at;
      }
    }
    return lines ?? [];
  }

  private get every(): readonly number[] {
    return (this.allLines ??= this.lines.map((_, i) => i));
  }

  /** Whether `g` may match line `i` (one of its literals is there). */
  mayMatch(g: Gate, i: number): boolean {
    const found = this.found;
    return !found || !g.literals || g.literals.some((id) => found[id]?.includes(i) === true);
  }

  /** Whether `g` may match somewhere in the paste. */
  anywhere(g: Gate): boolean {
    const found = this.found;
    return !found || !g.literals || g.literals.some((id) => found[id] !== undefined);
  }

  /** The lines as one text. */
  get joined(): string {
    return (this.joinedText ??= this.lines.join('\n'));
  }

  /** Whether `g` (not global) matches the lines as one text, where a match may span lines. */
  inText(g: Gate): boolean {
    return this.anywhere(g) && g.re.test(this.joined);
  }
}
