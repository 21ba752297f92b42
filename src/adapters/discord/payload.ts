// Neutral messages to Discord payloads. A message with a title becomes an embed (room for 4000
// characters), anything else plain content (2000). Text that does not fit is cut from the end, so
// the title and the first blocks (the diagnosis, the step itself) always stay, and a cut never
// leaves a code fence open.
import { ButtonStyle, ComponentType, escapeMarkdown, type APIActionRowComponent, type APIButtonComponentWithCustomId, type APIEmbed } from 'discord.js';
import { parseButtonId, type Block, type Button, type Message } from '../../conversation/render.ts';

export const LIMITS = {
  content: 2000,
  description: 4000,
  title: 256,
  embedTotal: 6000,
  buttonLabel: 80,
  customId: 100,
  buttonsPerRow: 5,
  rows: 5,
  threadName: 100,
} as const;

/** Nothing the bot posts may ping: a pasted @everyone or <@id> stays text. */
export const NO_PINGS = { parse: [] as [], repliedUser: false };

/** Mentions a payload may make: none, or the one helper role the hand-over is for. */
export type AllowedMentions = typeof NO_PINGS | { parse: []; repliedUser: false; roles: [string] };

export type ButtonRow = APIActionRowComponent<APIButtonComponentWithCustomId>;

export interface Payload {
  content: string;
  embeds: APIEmbed[];
  components: ButtonRow[];
  files: { attachment: Buffer; name: string }[];
  allowedMentions: AllowedMentions;
}

const STYLE: Record<Button['style'], ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Success | ButtonStyle.Danger> = {
  primary: ButtonStyle.Primary,
  secondary: ButtonStyle.Secondary,
  success: ButtonStyle.Success,
  danger: ButtonStyle.Danger,
};

const FENCE = '```';
const CLOSE_FENCE = `\n${FENCE}`;
/** Below this much room a cut piece says nothing useful; it is dropped instead. */
const MIN_CUT = 24;

const fences = (s: string) => s.split(FENCE).length - 1;

/**
 * Cuts `s` to at most `max` characters: at a line or word break near the end when there is one,
 * never inside a surrogate pair, marked with "…", and with a code fence it cut into closed again.
 */
export function cutText(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max < 8) return s.slice(0, Math.max(0, max));
  const head = (budget: number) => {
    let h = s.slice(0, Math.max(0, budget));
    const brk = Math.max(h.lastIndexOf('\n'), h.lastIndexOf(' '));
    if (brk > budget * 0.66) h = h.slice(0, brk);
    if (/[\ud800-\udbff]$/.test(h)) h = h.slice(0, -1);
    return `${h.trimEnd()}…`;
  };
  const cut = head(max - 1);
  if (fences(cut) % 2 === 0) return cut;
  // Cut inside a fence: make room to close it (the shorter cut may have dropped the opening).
  const shorter = head(max - 1 - CLOSE_FENCE.length);
  return fences(shorter) % 2 ? shorter + CLOSE_FENCE : shorter;
}

/** Joins pieces (each carrying its own leading separator) into at most `limit` characters, in order. */
export function fit(pieces: string[], limit: number): string {
  let out = '';
  for (const piece of pieces) {
    if (out.length + piece.length <= limit) {
      out += piece;
      continue;
    }
    const room = limit - out.length;
    const cut = room >= MIN_CUT ? cutText(piece, room) : '';
    if (cut) out += cut;
    else if (room >= 2) out += '\n…';
    break;
  }
  return out;
}

/**
 * User text as plain text: escapeMarkdown leaves a masked link ([Free Nitro](https://...)) a
 * link, so its brackets are escaped too; the address stays visible for what it is.
 */
const inert = (s: string) => escapeMarkdown(s).replace(/[[\]()]/g, '\\$&');

/** User text inside our fences must not be able to close them. */
const inCode = (s: string) => `${FENCE}\n${s.replaceAll(FENCE, '`\u200b``')}\n${FENCE}`;

/** A block that opens a fence and never closes it would swallow everything after it. */
const balanced = (s: string) => (fences(s) % 2 ? s + CLOSE_FENCE : s);

function renderBlock(b: Block): string {
  return balanced(renderUnbalanced(b));
}

function renderUnbalanced(b: Block): string {
  switch (b.kind) {
    case 'title':
      return `**${b.text}**`;
    case 'code':
      return inCode(b.text);
    case 'fields':
      // Field values come from the user's log, so they are escaped; the labels are ours.
      return [`**${b.text}**`, ...(b.fields ?? []).map(([k, v]) => `${k}: **${inert(v)}**`)].join('\n');
    case 'note':
      return b.text
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => `-# ${l}`)
        .join('\n');
    case 'text':
      return b.text;
  }
}

function renderPieces(blocks: Block[]): string[] {
  return blocks
    .map((b, i) => {
      const text = renderBlock(b);
      if (!text.trim()) return '';
      const sep = i === 0 ? '' : b.kind === 'note' && blocks[i - 1]!.kind === 'note' ? '\n' : '\n\n';
      return sep + text;
    })
    .filter(Boolean)
    .map((p, i) => (i === 0 ? p.replace(/^\n+/, '') : p));
}

export function buttonRows(buttons: Button[] = []): ButtonRow[] {
  const usable = buttons.filter((b) => b.id.length <= LIMITS.customId).slice(0, LIMITS.buttonsPerRow * LIMITS.rows);
  const rows: ButtonRow[] = [];
  for (let i = 0; i < usable.length; i += LIMITS.buttonsPerRow) {
    rows.push({
      type: ComponentType.ActionRow,
      components: usable.slice(i, i + LIMITS.buttonsPerRow).map((b) => ({
        type: ComponentType.Button,
        custom_id: b.id,
        label: cutText(b.label, LIMITS.buttonLabel),
        style: STYLE[b.style],
      })),
    });
  }
  return rows;
}

/** The hand-over message (and only it) mentions its place's helper role, and may ping it alone. */
export function toPayload(m: Message): Payload {
  const titleAt = m.blocks.findIndex((b) => b.kind === 'title');
  const files = (m.files ?? []).map((f) => ({ attachment: Buffer.from(f.content, 'utf8'), name: f.name }));
  const role = m.pingHelpers && m.helpers && /^\d{17,20}$/.test(m.helpers) ? m.helpers : undefined;
  if (role) {
    const { pingHelpers: _ping, helpers: _helpers, ...plainMessage } = m;
    const plain = toPayload(plainMessage);
    const ping = `<@&${role}> `;
    return { ...plain, content: plain.content ? fit([ping, plain.content], LIMITS.content) : ping.trim(), allowedMentions: { parse: [], repliedUser: false, roles: [role] } };
  }
  const base = { components: buttonRows(m.buttons), files, allowedMentions: NO_PINGS };
  if (titleAt < 0) return { ...base, content: fit(renderPieces(m.blocks), LIMITS.content), embeds: [] };
  const rest = m.blocks.filter((_, i) => i !== titleAt);
  const description = fit(renderPieces(rest), LIMITS.description);
  const embed: APIEmbed = { title: cutText(m.blocks[titleAt]!.text, LIMITS.title), ...(description ? { description } : {}) };
  // Content is sent (empty) so the no-ping rule travels with every message, embeds included.
  return { ...base, content: '', embeds: [embed] };
}

/** A plain text message from the adapter itself (its own strings). */
export const textPayload = (text: string): Payload => toPayload({ blocks: [{ kind: 'text', text }] });

/** Monospaced text (moderator stats), cut to one message. */
export const codePayload = (text: string): Payload => ({ ...textPayload(''), content: fit([inCode(text)], LIMITS.content) });

/** Monospaced text in as many messages as it takes, each broken between lines and closing its own block. */
export function codePayloads(text: string): Payload[] {
  const room = LIMITS.content - inCode('').length;
  const chunks: string[] = [];
  for (const line of text.split('\n')) {
    const last = chunks.at(-1);
    if (last !== undefined && last.length + 1 + line.length <= room) chunks[chunks.length - 1] = `${last}\n${line}`;
    else chunks.push(line);
  }
  return chunks.map(codePayload);
}

/** The thread a case runs in is named after its diagnosis. */
export function threadName(m: Message, fallback: string): string {
  const title = m.blocks.find((b) => b.kind === 'title')?.text ?? fallback;
  return cutText(title.replace(/\s+/g, ' ').trim(), LIMITS.threadName) || fallback;
}

const isShow = (id: string) => (parseButtonId(id) as { show?: true } | undefined)?.show === true;

/**
 * The buttons of a step that has been answered: all disabled, the pressed one still coloured
 * (blurple if it had none) so the thread shows what was chosen; "Show current step" stays live.
 */
export function answeredRows(rows: readonly unknown[], pressed: string): ButtonRow[] {
  return rows
    .filter((r): r is ButtonRow => (r as ButtonRow)?.type === ComponentType.ActionRow)
    .map((r) => ({
      type: ComponentType.ActionRow,
      components: r.components
        .filter((c) => c.type === ComponentType.Button && 'custom_id' in c)
        .map((c) =>
          isShow(c.custom_id)
            ? c
            : {
                ...c,
                disabled: true,
                style: c.custom_id !== pressed ? ButtonStyle.Secondary : c.style === ButtonStyle.Secondary ? ButtonStyle.Primary : c.style,
              },
        ),
    }));
}

/** The rows of a message whose step the case has moved past: only "Show current step" is left. */
export function retiredRows(rows: readonly unknown[]): ButtonRow[] {
  return rows
    .filter((r): r is ButtonRow => (r as ButtonRow)?.type === ComponentType.ActionRow)
    .map((r): ButtonRow => ({ type: ComponentType.ActionRow, components: r.components.filter((c) => c.type === ComponentType.Button && 'custom_id' in c && isShow(c.custom_id)) }))
    .filter((r) => r.components.length);
}

export const embedLength = (e: APIEmbed) =>
  (e.title?.length ?? 0) +
  (e.description?.length ?? 0) +
  (e.footer?.text.length ?? 0) +
  (e.author?.name.length ?? 0) +
  (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);
