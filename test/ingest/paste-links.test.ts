// Links to paste sites, read like attached logs, from a fake paste host on 127.0.0.1.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine, type Origin } from '../../src/conversation/engine.ts';
import type { Message } from '../../src/conversation/render.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { sample } from '../helpers/corpus.ts';
import { kb } from '../helpers/kb.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startPasteHost, textPage, type PasteHost } from '../helpers/paste-host.ts';

const LOG = onNvidia(sample('cf-0214').text);

let host: PasteHost;
beforeAll(async () => {
  host = await startPasteHost({
    'pastebin.com/raw/AbCd1234': textPage(LOG),
    'gist.githubusercontent.com/alice/0123abcd/raw': textPage(LOG),
    'hastebin.com/raw/ojiyefaxo': textPage(LOG),
    'api.mclo.gs/1/raw/Xk2lq9': textPage(LOG),
    'rentry.co/comfylog/raw': textPage(LOG),
    'pastebin.com/raw/Redirect1': (res) => res.writeHead(302, { location: 'https://evil.example/steal' }).end(),
    'pastebin.com/raw/Moved123': (res) => res.writeHead(301, { location: '/raw/AbCd1234' }).end(),
    'pastebin.com/raw/Huge1234': (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const more = () => {
        while (sent < 20 && res.write(chunk)) sent++;
        if (sent >= 20) res.end();
        else res.once('drain', () => (sent++, more()));
      };
      more();
    },
    'pastebin.com/raw/Slow1234': () => undefined,
    'pastebin.com/raw/Image123': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(100)),
  });
});
afterAll(() => host.close());

const user: Origin = { platform: 'discord', channel: 'c', user: 'u1' };
const text = (m: Message[]) => m.flatMap((x) => x.blocks.map((b) => b.text)).join('\n');
const engine = () => {
  const db = openDb(join(mkdtempSync(join(tmpdir(), 'links-')), 'cases.db'));
  return { db, e: new Engine({ kb, store: new CaseStore(sqliteSql(db)), readPaste: host.read, ratePerMinute: 1e9 }) };
};

it.each([
  ['pastebin', 'https://pastebin.com/AbCd1234'],
  ['a gist', 'https://gist.github.com/alice/0123abcd'],
  ['hastebin', 'https://hastebin.com/share/ojiyefaxo'],
  ['mclo.gs', 'https://mclo.gs/Xk2lq9'],
  ['rentry', 'https://rentry.co/comfylog'],
  ['a redirect onto the same site', 'https://pastebin.com/Moved123'],
])('reads a link to %s as the log it holds', async (_site, link) => {
  const { e, db } = engine();
  expect(await e.looksLikeLog(`here is my log ${link}`)).toBe(true);
  const out = await e.receive(user, { text: `here is my log ${link}` });
  expect(out[0]!.caseId).toBeTruthy();
  expect(db.prepare('SELECT entry FROM cases').pluck().get()).toBe('gpu-oom-sampling');
});

it('fetches nothing but the sites it knows, follows no redirect off them, and says what it could not read', async () => {
  const { e, db } = engine();
  const from = host.asked.length;
  expect(await e.looksLikeLog('see https://example.com/paste/AbCd1234')).toBe(false);
  await e.receive(user, { text: `${LOG}\nsee https://example.com/raw/AbCd1234` });
  expect(host.asked.slice(from)).toEqual([]);

  const said = text(await e.receive(user, { text: 'https://pastebin.com/Redirect1' }));
  expect(said).toMatch(/I could not read https:\/\/pastebin\.com\/Redirect1/);
  expect(host.asked.slice(from)).toEqual(['pastebin.com/raw/Redirect1']);
  expect(text(await e.receive(user, { text: 'https://pastebin.com/Nothere1' }))).toMatch(/I could not read .*not found, not text, or too slow/);
  expect(text(await e.receive(user, { text: 'https://pastebin.com/Image123' }))).toMatch(/I could not read/);
  expect(text(await e.receive(user, { text: 'https://pastebin.com/Slow1234' }))).toMatch(/I could not read/);
  expect(text(await e.receive(user, { text: 'https://pastebin.com/Huge1234' }))).toMatch(/too large to read \(8 MB at most\)/);
  expect(text(await e.receive(user, { text: 'https://privatebin.net/?abc123#Key456' }))).toMatch(/encrypted and only opens in a browser/);
  expect(db.prepare('SELECT COUNT(*) FROM cases').pluck().get()).toBe(1);
});
