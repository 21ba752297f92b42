// What a person types at a step instead of pressing a button. "still OOM", "还是显存不足" and
// "does --lowvram help?" are answers, not logs: a message is a log only when it looks like console
// output. An answer is read for its intent (kb/replies.yaml) and stands for the buttons that say the
// same; when no rule reads it, the bot asks rather than guesses.
import RE2 from 're2';
import type { ReplyIntent, ReplyRule } from '../kb/schema.ts';
import type { Action, CaseState, Reason } from './machine.ts';
import { LOG_LINE } from '../i18n/words.ts';

/** Longer than any reply: a message this long is a paste, whatever its words. */
const REPLY_MAX = 300;

/** Whether text reads as a person's few words rather than console output. */
export function isSentence(text: string): boolean {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length > 0 && lines.length <= 3 && text.trim().length <= REPLY_MAX && !lines.some((l) => LOG_LINE.test(l));
}

export type ReplyReader = (text: string) => ReplyIntent | undefined;

/** Reads a reply with the kb's rules, in their order: the first rule that matches decides. */
export function replyReader(rules: readonly ReplyRule[]): ReplyReader {
  const compiled = rules.map((r) => ({ intent: r.intent, patterns: r.patterns.map((p) => new RE2(p, 'iu')) }));
  return (text) => {
    const said = text.trim().replace(/\s+/g, ' ');
    if (!said || said.length > REPLY_MAX) return undefined;
    return compiled.find((r) => r.patterns.some((p) => p.test(said)))?.intent;
  };
}

/** A button's meaning: an action on the step, or why it failed. */
export type Press = { action: Action } | { reason: Reason };

const REASON_OF: Partial<Record<ReplyIntent, Reason>> = { failing: 'same', different: 'different', could_not_apply: 'could_not_apply' };

/**
 * What a reply stands for where the case waits: the buttons to press, in order; `show` to put the
 * prompt again (a question about the step gets it back with its why; a log asked for is still
 * wanted); `wait` for someone about to try the step; `ask` when the words do not say whether it
 * worked; `doubt` for "that's not my problem". Stop and doubt are understood at every prompt.
 */
export function pressesFor(intent: ReplyIntent | undefined, awaiting: CaseState['awaiting']): Press[] | 'show' | 'ask' | 'wait' | 'doubt' {
  if (intent === 'stop') return [{ action: 'stop' }];
  if (intent === 'wrong') return 'doubt';
  const reason = intent && REASON_OF[intent];
  switch (awaiting) {
    case 'answer':
      if (intent === 'worked') return [{ action: 'worked' }];
      if (intent === 'skip') return [{ action: 'skip' }];
      if (reason) return [{ action: 'failed' }, { reason }];
      return intent === 'question' ? 'show' : intent === 'trying' ? 'wait' : 'ask';
    case 'reason':
      return reason ? [{ reason }] : 'show';
    case 'log':
    case 'question':
      return 'show';
  }
}
