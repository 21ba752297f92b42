// How recorded outcomes turn into a step order: every number the learner uses, as data, with the
// reason for it. Changing the policy is changing this file; `npm run bench -- adaptive` shows what
// a change does to simulated users before any real one meets it.
import type { Step } from '../kb/schema.ts';

/** off: the kb's order, always. suggest: the kb's order, the learned one shown to moderators. on: the learned order. */
export type AdaptiveMode = 'off' | 'suggest' | 'on';
/** COMFYOOM_ADAPTIVE unset: suggest until an entry has enough confirmed fixes, then on, per entry. */
export type AdaptiveSetting = AdaptiveMode | 'auto';

export const POLICY = {
  /**
   * The kb order as a prior: the kb's first step is believed to fix `top` of the cases that answer
   * it, each later one `decay` times as many, never below `floor`. A prior worth `strength`
   * answers means a step the kb puts first needs real evidence to drop, and a dozen lucky answers
   * do not lift a late one over it.
   */
  prior: { top: 0.45, decay: 0.78, floor: 0.04, strength: 12 },
  /**
   * One setup's (VRAM tier, OS, backend, dynamic VRAM) estimate starts from the entry's estimate
   * over every other setup, worth this many answers: small samples of a setup shrink toward the
   * entry, and a setup with hundreds of answers speaks for itself.
   */
  contextStrength: 20,
  /**
   * What an answer says about a step fixing the failure. A different failure after it got past
   * this one (the step worked for this entry); an assumed resolution is the bot's inference from
   * a later log, worth half a confirmation. Skipping or being unable to apply a step fixes
   * nothing for that user, so they count as misses: a step people cannot carry out should not go
   * first.
   */
  credit: { fixed: 1, movedOn: 1, assumed: 0.5 },
  /**
   * How far a draw may stray from the expected chance (1: plain Thompson sampling). Less than 1
   * keeps exploring, so a rarely offered step can still prove itself, while close rivals swap
   * places less often than their uncertainty alone would have them.
   */
  exploration: 0.5,
  /** A step's cost in the ordering: a high-effort step must fix more often to go before a low one. */
  effort: { low: 1, medium: 1.1, high: 1.25 } satisfies Record<Step['effort'], number>,
  /**
   * Steps whose place is a rule, not a guess, keep the kb's place: the update or rollback stays
   * where resolved threads put it (early: the commonest real fix, yet one that chat answers would
   * sink, since it takes effort and people skip it), and the hand-over to human helpers stays last.
   */
  fixedPlace: ['update-or-rollback', 'share-full-log'] as readonly string[],
  /** In `auto`, an entry's order adapts once this many users confirmed a fix for it. */
  autoOnConfirmed: 30,
  /** A step shows "fixed it for x% of n people" once n people tried it. */
  showRateAfter: 20,
} as const;
