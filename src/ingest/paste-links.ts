// Links to paste sites, read like attached logs: help channels paste long logs to pastebin and its
// kin. Only the sites below are ever fetched, each through its raw endpoint, and only text: at most
// the file cap, within a timeout, following redirects only onto the same sites.
import { INGEST_LIMITS } from './limits.ts';
import type { Attachment, IngestProblem } from './types.ts';

/** A paste page's raw text: by site, the raw URL for a page's path (undefined: not a paste there). */
const RAW: Record<string, (path: string[]) => string | undefined> = {
  'pastebin.com': ([id, more]) => (id && !more && /^\w{4,12}$/.test(id) ? `https://pastebin.com/raw/${id}` : id === 'raw' && more ? `https://pastebin.com/raw/${more}` : undefined),
  'gist.github.com': ([user, id]) => (user && id ? `https://gist.githubusercontent.com/${user}/${id}/raw` : undefined),
  'gist.githubusercontent.com': (path) => (path.length >= 2 ? `https://gist.githubusercontent.com/${path.join('/')}` : undefined),
  'hastebin.com': ([id, more]) => hastebin('https://hastebin.com', id, more),
  'hastebin.skyra.pw': ([id, more]) => hastebin('https://hastebin.skyra.pw', id, more),
  'www.toptal.com': ([a, b, id, more]) => (a === 'developers' && b === 'hastebin' ? hastebin('https://www.toptal.com/developers/hastebin', id, more) : undefined),
  'paste.ee': ([kind, id]) => ((kind === 'p' || kind === 'r') && id ? `https://paste.ee/r/${id}` : undefined),
  'pastes.dev': ([id]) => (id ? `https://api.pastes.dev/${id}` : undefined),
  'rentry.co': ([id, more]) => (id && (!more || more === 'raw') ? `https://rentry.co/${id}/raw` : undefined),
  'dpaste.org': ([id, more]) => (id && (!more || more === 'raw') ? `https://dpaste.org/${id}/raw` : undefined),
  'dpaste.com': ([id]) => (id ? `https://dpaste.com/${id.replace(/\.txt$/, '')}.txt` : undefined),
  'mclo.gs': ([id]) => (id ? `https://api.mclo.gs/1/raw/${id}` : undefined),
};

function hastebin(base: string, id: string | undefined, more: string | undefined): string | undefined {
  if (!id) return undefined;
  const key = (id === 'raw' || id === 'share' ? more : id)?.replace(/\.\w+$/, '');
  return key ? `${base}/raw/${key}` : undefined;
}

/** Where raw text is served: the only hosts ever fetched, redirects included. */
const RAW_HOSTS = new Set(['pastebin.com', 'gist.githubusercontent.com', 'hastebin.com', 'hastebin.skyra.pw', 'www.toptal.com', 'paste.ee', 'api.pastes.dev', 'rentry.co', 'dpaste.org', 'dpaste.com', 'api.mclo.gs']);

/** PrivateBin decrypts in the browser with the key after '#': nothing to read on the server. */
const ENCRYPTED = /^https?:\/\/(?:privatebin\.net|bin\.disroot\.org|paste\.i2pd\.xyz|[\w.-]*privatebin[\w.-]*)\/\S*#\S+/i;

const URL_IN_TEXT = /https?:\/\/[^\s<>()"'`]+/gi;
const MAX_LINKS = 3;
const MAX_REDIRECTS = 3;
const TIMEOUT_MS = 10_000;

class LinkProblem extends Error {
  constructor(readonly problem: IngestProblem['kind']) {
    super(problem);
  }
}

/** Reads a raw URL's text (see httpPasteReader); failures are LinkProblems. */
export type PasteReader = (url: URL) => Promise<Buffer>;

/** The links of a text that point to pastes, as the raw URLs to read them from. */
function pasteUrls(text: string): { link: string; raw?: URL }[] {
  const found: { link: string; raw?: URL }[] = [];
  for (const [link] of text.matchAll(URL_IN_TEXT)) {
    if (found.length >= MAX_LINKS) break;
    if (ENCRYPTED.test(link)) {
      found.push({ link });
      continue;
    }
    let url: URL;
    try {
      url = new URL(link.replace(/[.,;:!?]+$/, ''));
    } catch {
      continue;
    }
    const raw = RAW[url.hostname.toLowerCase().replace(/^www\.(?!toptal)/, '')]?.(url.pathname.split('/').filter(Boolean));
    if (raw) found.push({ link, raw: new URL(raw) });
  }
  return found;
}

/** Whether a text holds a link to a paste: a bare link is a log for the adapters too. */
export function hasPasteLink(text: string): boolean {
  return pasteUrls(text).length > 0;
}

/** The paste links of a text as attachments, read (when ingested) through `read`. */
export function pasteLinks(text: string, read: PasteReader): Attachment[] {
  return pasteUrls(text).map(({ link, raw }) => ({
    name: link,
    contentType: 'text/plain',
    read: () => (raw ? read(raw) : Promise.reject(new LinkProblem('link_encrypted'))),
  }));
}

/** The problem a failed read of a link is reported as. */
export const linkProblem = (e: unknown): IngestProblem['kind'] | undefined => (e instanceof LinkProblem ? e.problem : undefined);

/**
 * Fetches raw paste text over HTTP(S). `rewrite` maps a URL to where it is really fetched (tests
 * serve the sites from 127.0.0.1); the allowlist is checked on the URL as named.
 */
export function httpPasteReader(o: { rewrite?: (url: URL) => URL; timeoutMs?: number } = {}): PasteReader {
  return async (start) => {
    let url = start;
    for (let hop = 0; ; hop++) {
      if (!RAW_HOSTS.has(url.hostname) || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new LinkProblem('link_unreadable');
      let res: Response;
      try {
        res = await fetch(o.rewrite ? o.rewrite(url) : url, { redirect: 'manual', signal: AbortSignal.timeout(o.timeoutMs ?? TIMEOUT_MS) });
      } catch {
        throw new LinkProblem('link_unreadable');
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location && hop < MAX_REDIRECTS) {
        await res.body?.cancel();
        url = new URL(location, url);
        continue;
      }
      const type = res.headers.get('content-type') ?? 'text/plain';
      if (res.status !== 200 || !/^(text\/|application\/json)/i.test(type)) {
        await res.body?.cancel();
        throw new LinkProblem('link_unreadable');
      }
      return readCapped(res, o.timeoutMs ?? TIMEOUT_MS);
    }
  };
}

/** The body, or too_big as soon as it passes the file cap (whatever Content-Length said). */
async function readCapped(res: Response, timeoutMs: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body!.getReader();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (Date.now() > deadline) {
      await reader.cancel();
      throw new LinkProblem('link_unreadable');
    }
    const { done, value } = await reader.read().catch(() => {
      throw new LinkProblem('link_unreadable');
    });
    if (done) return Buffer.concat(chunks);
    size += value.length;
    if (size > INGEST_LIMITS.maxFileBytes) {
      await reader.cancel();
      throw new LinkProblem('too_big');
    }
    chunks.push(value);
  }
}
