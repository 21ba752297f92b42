// Neutral messages to Block Kit. Slack refuses a whole message when one part is over a limit, so
// every part is cut to fit here, keeping what matters (title, text, commands, the buttons) and
// dropping notes and facts first. Pasted text is escaped so it can never ping a channel or a user.
import type { types } from '@slack/bolt';
import type { Block, Button, Message } from '../../conversation/render.ts';

type KnownBlock = types.KnownBlock;

/** Slack's documented limits (characters, except `blocks`). */
export const LIMITS = {
  blocks: 50,
  header: 150,
  section: 3000,
  field: 2000,
  fieldsPerSection: 10,
  context: 3000,
  buttonLabel: 75,
  actionsElements: 25,
  actionId: 255,
  /** The notification text; Slack truncates longer ones anyway. */
  fallback: 500,
} as const;

/** Names the buttons' block in the message Slack sends back with each click. */
export const ACTIONS_BLOCK_ID = 'comfyoom_actions';

const ELLIPSIS = '…';

/**
 * Slack's three control characters. Escaped, `<!channel>`, `<!here>`, `<!everyone>` and `<@U…>`
 * from a paste render as text instead of notifying anyone.
 */
export const escapeMrkdwn = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The longest prefix of `raw` whose escaped form fits `max` characters; never splits an entity or a surrogate pair. */
function escapedPrefix(raw: string, max: number): { text: string; cut: boolean } {
  let used = 0;
  let end = 0;
  for (const ch of raw) {
    const cost = ch === '&' ? 5 : ch === '<' || ch === '>' ? 4 : ch.length;
    if (used + cost > max) return { text: escapeMrkdwn(raw.slice(0, end)), cut: true };
    used += cost;
    end += ch.length;
  }
  return { text: escapeMrkdwn(raw), cut: false };
}

/**
 * Escapes and cuts to `max`, preferring a line end in the last third, with an ellipsis when cut.
 * Backticks in a row get a zero-width space between them: only codeSection opens fences, so a
 * cut can never leave one open.
 */
export function fitMrkdwn(text: string, max: number): string {
  const raw = text.replace(/`(?=`)/g, '`\u200b');
  const whole = escapedPrefix(raw, max);
  if (!whole.cut) return whole.text;
  const room = max - ELLIPSIS.length - 1;
  let head = escapedPrefix(raw, room).text;
  const nl = head.lastIndexOf('\n');
  if (nl > (room * 2) / 3) head = head.slice(0, nl);
  return `${head}\n${ELLIPSIS}`;
}

const cutPlain = (s: string, max: number) => {
  if (s.length <= max) return s;
  const chars = Array.from(s);
  let out = '';
  for (const ch of chars) {
    if (out.length + ch.length > max - ELLIPSIS.length) break;
    out += ch;
  }
  return out + ELLIPSIS;
};

/** A code block that stays closed whatever is cut (fitMrkdwn keeps the paste from closing it early). */
export function codeSection(raw: string, max: number = LIMITS.section): string {
  return `\`\`\`\n${fitMrkdwn(raw.replace(/\n+$/, ''), max - 8)}\n\`\`\``;
}

/** Splits a long text into code blocks of whole lines, each fitting one section. */
export function codeChunks(text: string, max = LIMITS.section - 100): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    const next = current ? `${current}\n${line}` : line;
    if (escapeMrkdwn(next).length > max && current) {
      chunks.push(current);
      current = line;
    } else current = next;
  }
  if (current || !chunks.length) chunks.push(current);
  return chunks;
}

const SLACK_STYLE: Record<Button['style'], 'primary' | 'danger' | undefined> = { primary: 'primary', success: 'primary', danger: 'danger', secondary: undefined };

function button(b: Button): types.Button {
  const style = SLACK_STYLE[b.style];
  return {
    type: 'button',
    // The neutral id carries everything the engine needs, so a click still works after a restart.
    action_id: b.id.slice(0, LIMITS.actionId),
    value: b.id,
    text: { type: 'plain_text', text: cutPlain(b.label, LIMITS.buttonLabel), emoji: true },
    ...(style ? { style } : {}),
  };
}

/** How readily a block goes when a message has more than Slack's 50 (higher goes first). */
type Ranked = { block: KnownBlock; drop: number };

function translate(b: Block): Ranked[] {
  // Slack rejects an empty text object, and with it the whole message.
  if (b.kind !== 'fields' && !b.text.trim()) return [];
  switch (b.kind) {
    case 'title':
      return [{ block: { type: 'header', text: { type: 'plain_text', text: cutPlain(b.text, LIMITS.header), emoji: true } }, drop: 0 }];
    case 'text':
      return [{ block: { type: 'section', text: { type: 'mrkdwn', text: fitMrkdwn(b.text, LIMITS.section) } }, drop: 0 }];
    case 'code':
      return [{ block: { type: 'section', text: { type: 'mrkdwn', text: codeSection(b.text) } }, drop: 0 }];
    case 'note':
      return [{ block: { type: 'context', elements: [{ type: 'mrkdwn', text: fitMrkdwn(b.text, LIMITS.context) }] }, drop: 2 }];
    case 'fields': {
      const fields = (b.fields ?? []).map(([k, v]) => {
        const key = fitMrkdwn(k, 200);
        return { type: 'mrkdwn' as const, text: `*${key}*\n${fitMrkdwn(v, LIMITS.field - key.length - 3)}` };
      });
      const groups: (typeof fields)[] = [];
      for (let i = 0; i < fields.length; i += LIMITS.fieldsPerSection) groups.push(fields.slice(i, i + LIMITS.fieldsPerSection));
      if (!groups.length) groups.push([]);
      return groups.flatMap((part, i): Ranked[] => {
        const heading = i === 0 && b.text.trim() ? `*${fitMrkdwn(b.text, LIMITS.section - 2)}*` : undefined;
        if (!heading && !part.length) return [];
        const block = { type: 'section', ...(heading ? { text: { type: 'mrkdwn', text: heading } } : {}), ...(part.length ? { fields: part } : {}) } as KnownBlock;
        return [{ block, drop: 1 }];
      });
    }
  }
}

/** Plain words for notifications and screen readers: the first title and text. */
function fallbackText(m: Message): string {
  const words = m.blocks.filter((b) => b.kind === 'title' || b.kind === 'text').slice(0, 2).map((b) => b.text);
  const raw = words.join(' — ') || m.blocks[0]?.text || 'ComfyOOM';
  return fitMrkdwn(raw.replace(/\s+/g, ' '), LIMITS.fallback);
}

export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

/** A neutral message as Block Kit, within Slack's limits. */
export function toBlockKit(m: Message, extraNotes: string[] = []): SlackMessage {
  const ranked = m.blocks.flatMap(translate);
  for (const note of extraNotes) ranked.push({ block: { type: 'context', elements: [{ type: 'mrkdwn', text: note }] }, drop: 2 });
  const buttons = (m.buttons ?? []).slice(0, LIMITS.actionsElements).map(button);
  const room = LIMITS.blocks - (buttons.length ? 1 : 0);
  // Notes go first, then facts, newest first; title, text and commands stay.
  for (let level = 2; level >= 0 && ranked.length > room; level--) {
    for (let i = ranked.length - 1; i >= 0 && ranked.length > room; i--) if (ranked[i]!.drop === level) ranked.splice(i, 1);
  }
  const blocks = ranked.map((r) => r.block);
  if (buttons.length) blocks.push({ type: 'actions', block_id: ACTIONS_BLOCK_ID, elements: buttons });
  return { text: fallbackText(m), blocks };
}

/**
 * The blocks of a step message after someone answered it: the buttons go (so nobody presses them
 * again) and the chosen answer shows in their place. `blocks` come back from Slack as posted.
 */
export function answeredBlocks(blocks: unknown[] | undefined, label: string): KnownBlock[] {
  const kept = withoutButtons(blocks);
  return [...kept, { type: 'context', elements: [{ type: 'mrkdwn', text: `➜ *${fitMrkdwn(label, LIMITS.buttonLabel)}*` }] }];
}

export function withoutButtons(blocks: unknown[] | undefined): KnownBlock[] {
  return ((blocks ?? []) as KnownBlock[]).filter((b) => b.type !== 'actions').slice(0, LIMITS.blocks - 1);
}
