// What an entry is called for one paste: its own title and cause, or the variant whose condition
// the paste's facts meet (a GPU OOM whose log names no node is not said to be "in an upscaler").
import type { Entry, Text } from '../kb/schema.ts';
import { evaluate } from './conditions.ts';
import type { Facts } from './facts/types.ts';

export function wording(entry: Entry, facts: Facts): { title: Text; cause: Text } {
  return entry.variants?.find((v) => evaluate(v.when, facts).truth === true) ?? entry;
}
