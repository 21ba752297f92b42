// What a started chat adapter offers the bot runner (app/bots.ts), defined here, where the faces
// live, so no face imports the runner that starts it.
import type { Message } from '../conversation/render.ts';
import type { CaseRow } from '../store/cases.ts';

export interface RunningAdapter {
  /** The platform name stored with its cases: discord | slack. */
  platform: string;
  /** Posts messages about a case where it lives (its thread, else its channel). */
  deliver(row: CaseRow, messages: Message[]): Promise<void>;
  /** Posts the weekly digest to the moderators' channel, if one is configured and this week's is not out yet. */
  digest?(): Promise<void>;
  /** What keeps it from taking work now (its gateway or socket down); nothing when it can. */
  problem?(): string | undefined;
  stop(): Promise<void>;
}
