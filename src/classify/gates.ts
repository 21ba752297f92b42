// The project's own per-line patterns, each with the literals one of which every match holds:
// one pass over a paste (literals.ts) finds the lines where each pattern can match at all, and a
// pattern runs on those lines only. Most patterns look for something most pastes never say.
import { LiteralIndex, requiredLiterals } from './literals.ts';

/** A pattern, and the ids of its literals (none: it may match any line). */
export interface Gate {
  readonly re: RegExp;
  readonly literals?: readonly number[];
}

const literals: string[] = [];
const ids = new Map<string, number>();
const declared: Gate[] = [];
/** Built at the first paste, after every module has declared its gates (and again after a late one). */
let index: LiteralIndex | undefined;

/**
 * `re` with the literals read from its own source; declare gates once, at module level. Two
 * characters still leave out most lines (the one pass costs the same whatever the literals); a
 * pattern whose only fixed text is a character (`%`) may take literals of one.
 */
export function gate(re: RegExp, minLength = 2): Gate {
  const needed = requiredLiterals(re.source, minLength);
  index = undefined;
  const g: Gate = needed
    ? {
        re,
        literals: needed.map((l) => {
          let id = ids.get(l);
          if (id === undefined) ids.set(l, (id = literals.push(l) - 1));
          return id;
        }),
      }
    : { re };
  declared.push(g);
  return g;
}

/** Every gate declared so far and its literals, for the test that each literal is in every line its pattern matches. */
export const declaredGates = (): { re: RegExp; literals?: string[] }[] => declared.map((g) => ({ re: g.re, ...(g.literals ? { literals: g.literals.map((id) => literals[id]!) } : {}) }));

/** The gates' literals so far, in order: an index that starts with them (and goes on with others) can serve GatedLines. */
export const gateLiterals = (): readonly string[] => [...literals];

/** One paste's lines and, for every gate, the lines where it may match. */
export class GatedLines {
  private readonly found: readonly (number[] | undefined)[];
  private joinedText?: string;
  private allLines?: number[];

  /**
   * `found`: the lines' scan by an index whose first `counted` literals are gateLiterals(), when
   * the caller has one (so one pass serves more than the gates); a gate declared since is missing
   * from it, and the lines are then scanned here.
   */
  constructor(
    readonly lines: readonly string[],
    found?: readonly (number[] | undefined)[],
    counted = 0,
  ) {
    this.found = found && counted === literals.length ? found : (index ??= new LiteralIndex(literals)).scan(lines);
  }

  /** The lines where any of `gates` may match, ascending. */
  linesOf(gates: readonly Gate[]): readonly number[] {
    let one: number[] | undefined;
    let many: number[] | undefined;
    for (const g of gates) {
      if (!g.literals) return this.every;
      for (const id of g.literals) {
        const at = this.found[id];
        if (!at) continue;
        if (!one) one = at;
        else (many ??= [...one]).push(...at);
      }
    }
    if (!many) return one ?? [];
    return [...new Set(many)].sort((a, b) => a - b);
  }

  private get every(): readonly number[] {
    return (this.allLines ??= this.lines.map((_, i) => i));
  }

  /** Whether `g` may match somewhere in the paste. */
  anywhere(g: Gate): boolean {
    return !g.literals || g.literals.some((id) => this.found[id] !== undefined);
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
