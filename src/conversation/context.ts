// What the engine's parts (intake, opening, answers, cases, commands) share. Engine builds it once;
// nothing in it changes afterwards, and what does change (the rate limits, the classifier's last
// answer, a pending scrub) stays inside the one part that changes it.
import type { Diagnosis } from '../classify/classify.ts';
import type { Facts } from '../classify/facts/types.ts';
import type { Kb } from '../kb/load.ts';
import type { Learner } from '../learn/index.ts';
import type { Settings } from '../settings/settings.ts';
import type { CaseStore } from '../store/cases.ts';
import type { Pace } from './pace.ts';

/**
 * What costs the engine most, for it to run off the event loop that acknowledges chat commands:
 * reading a paste, redacting what is kept of it, and rewriting the database file after a forget.
 * Inline by default (the terminal); the bots pass a worker pool (see pool.ts).
 */
export interface Work {
  /** The diagnosis as shown: its quoted lines redacted (see storable.ts). */
  classify(text: string): Diagnosis | Promise<Diagnosis>;
  /** See storable.ts. */
  storedPaste(text: string): Promise<string>;
  storedFacts(facts: Facts): Promise<Facts>;
  /** Leaves no copy of deleted rows in the database file (see CaseStore.wipe), through a connection of its own. */
  wipe(file: string): Promise<boolean>;
}

export interface Context {
  readonly kb: Kb;
  readonly store: CaseStore;
  readonly work: Work;
  readonly now: () => number;
  readonly learner: Learner;
  readonly settings: Settings;
  readonly pace: Pace;
}

/** A piece of Work's result, handed on in a `work` turn of its own: results that all arrive at once go on a few a turn (see pace.ts). */
export async function paced<T>(pace: Pace, work: T | Promise<T>): Promise<T> {
  const done = await work;
  await pace.turn();
  return done;
}
