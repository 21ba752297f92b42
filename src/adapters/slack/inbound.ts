// Slack's side of a paste: message text back to what the user typed, whether it holds a log at
// all, and Slack files as the engine's attachments (downloaded only when the engine reads them).
import type { Attachment } from '../../ingest/ingest.ts';

/**
 * Message text as Slack sends it turned back into what was typed: `&amp;` `&lt;` `&gt;` are the
 * only entities, and `<…>` are links and mentions (a log line's own brackets arrive as entities).
 */
export function slackToPlain(text: string): string {
  return text
    .replace(/<([^<>]*)>/g, (_, inner: string) => {
      const bar = inner.indexOf('|');
      const target = bar < 0 ? inner : inner.slice(0, bar);
      const label = bar < 0 ? undefined : inner.slice(bar + 1);
      if (target.startsWith('@') || target.startsWith('#')) return label ? `${target[0]}${label.replace(/^[@#]/, '')}` : target;
      if (target.startsWith('!')) return label ?? `@${target.slice(1).split('^')[0]}`;
      return label ?? target;
    })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The text of a mention without the mention of the bot itself. */
export const withoutMentionOf = (text: string, botUserId: string | undefined) =>
  botUserId ? text.replace(new RegExp(`<@${botUserId}(?:\\|[^>]*)?>`, 'g'), ' ').trim() : text.trim();

/** The fields of a Slack file object that matter here (events, shortcuts and history share them). */
export interface SlackFile {
  id?: string;
  name?: string | null;
  title?: string | null;
  mimetype?: string;
  size?: number;
  url_private?: string;
  url_private_download?: string;
  /** "check_file_info" when the event left the URLs out. */
  file_access?: string;
  /** "tombstone" (deleted) or "hidden_by_limit" (beyond a free plan's history). */
  mode?: string;
}

export interface FileAccess {
  botToken: string;
  /** May the bot token go to this host? Only Slack's own (and a test fake). */
  trustedHost(host: string): boolean;
  /** files.info, for files whose URLs the event left out. */
  info(id: string): Promise<SlackFile | undefined>;
}

/** Slack files as attachments; the download (with the bot token) happens only when the engine reads one. */
export function slackAttachments(files: SlackFile[] | undefined, access: FileAccess): Attachment[] {
  return (files ?? [])
    .filter((f) => f.mode !== 'tombstone')
    .map((f) => ({
      name: f.name || f.title || f.id || 'file',
      ...(f.mimetype ? { contentType: f.mimetype } : {}),
      ...(typeof f.size === 'number' ? { size: f.size } : {}),
      read: () => download(f, access),
    }));
}

/** A download that stalls gives up, as Discord's do, and the file is reported unreadable. */
const DOWNLOAD_TIMEOUT_MS = 20_000;

async function download(f: SlackFile, access: FileAccess): Promise<Buffer> {
  let url = f.url_private_download ?? f.url_private;
  if ((!url || f.file_access === 'check_file_info') && f.id) {
    const info = await access.info(f.id);
    url = info?.url_private_download ?? info?.url_private ?? url;
  }
  if (!url) throw new Error(`no download URL for ${f.id ?? f.name}`);
  // The bot token reads every file the bot can see: it must never leave Slack.
  if (!access.trustedHost(new URL(url).hostname)) throw new Error(`refusing to send the bot token to ${new URL(url).hostname}`);
  const res = await fetch(url, { headers: { Authorization: `Bearer ${access.botToken}` }, signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`download of ${f.id ?? f.name} failed: HTTP ${res.status}`);
  // Without files:read Slack answers 200 with its sign-in page instead of the file.
  if ((res.headers.get('content-type') ?? '').includes('text/html') && !f.mimetype?.includes('html')) throw new Error(`download of ${f.id ?? f.name} returned a web page (is files:read granted?)`);
  return Buffer.from(await res.arrayBuffer());
}
