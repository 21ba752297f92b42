// A fake paste host on 127.0.0.1 that answers for every paste site: the reader is pointed at it,
// while the allowlist is checked on the links as named. Pages are keyed by host + path.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpPasteReader, type PasteReader } from '../../src/ingest/paste-links.ts';

export interface PasteHost {
  /** Every request it got, as host + path. */
  asked: string[];
  read: PasteReader;
  close(): Promise<void>;
}

export async function startPasteHost(pages: Record<string, (res: ServerResponse) => void>, timeoutMs = 1500): Promise<PasteHost> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    const key = (req.url ?? '/').slice(1);
    asked.push(key);
    (pages[key] ?? ((r: ServerResponse) => r.writeHead(404).end('not found')))(res);
  }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    asked,
    read: httpPasteReader({ rewrite: (url) => new URL(`${base}/${url.hostname}${url.pathname}`), timeoutMs }),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A page serving `text` as plain text. */
export const textPage = (text: string) => (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
