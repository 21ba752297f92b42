// What a paste and its facts become before they are stored: capped and redacted. Pure functions
// of their input, so the bots run them in a worker (see pool.ts) and the terminal inline.
import type { Diagnosis } from '../classify/classify.ts';
import type { Facts } from '../classify/facts/types.ts';
import { redact, redactValues } from '../redact/redact.ts';

/** Redacted pastes are stored up to this size, head and tail kept. */
const MAX_STORED_PASTE = 64 * 1024;

const capPaste = (text: string) =>
  text.length <= MAX_STORED_PASTE ? text : `${text.slice(0, MAX_STORED_PASTE / 4)}\n…\n${text.slice(text.length - (MAX_STORED_PASTE * 3) / 4)}`;

/**
 * A paste as stored: NUL dropped (past the binary check's sample it is still no text to keep),
 * capped (redacting megabytes would keep nothing more), redacted, capped again (placeholders may
 * lengthen it).
 */
export const storedPaste = async (text: string) => capPaste(await redact(capPaste(text.replace(/\u0000/g, ''))));

/**
 * Facts as stored: every string value redacted (an exception message may hold a home path or a
 * token), never the serialized text, whose quotes and backslashes a rule could eat.
 */
export async function factsForStorage(facts: Facts): Promise<Facts> {
  const { evidence: _lines, ...rest } = facts;
  return { ...(await redactValues(rest)), evidence: {} };
}

/**
 * A diagnosis as the bot shows it: the lines it quotes from the paste redacted as a stored paste
 * is. The bot's message outlives the user's: a token quoted there stays when a moderator deletes
 * the paste that held it.
 */
export async function shownDiagnosis<D extends Pick<Diagnosis, 'evidence'>>(d: D): Promise<D> {
  if (!d.evidence.length) return d;
  const texts = await Promise.all(d.evidence.map((e) => redact(e.text)));
  return { ...d, evidence: d.evidence.map((e, i) => ({ ...e, text: texts[i]! })) };
}
