// kb patterns run on RE2 (classify/patterns.ts), whose automaton takes time linear in the line
// whatever the pattern. RE2 refuses what it cannot run so (backreferences, lookarounds), and that
// is the only check a pattern needs; the loader makes it, so a kb that loads runs safely.
import RE2 from 're2';

/** Why a kb pattern cannot be used, or undefined when it is fine. */
export function checkPattern(source: string): string | undefined {
  try {
    new RE2(source, 'iu');
    return undefined;
  } catch (e) {
    return `not a pattern that runs in linear time: ${(e as Error).message}`;
  }
}
