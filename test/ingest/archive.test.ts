// .zip and .gz attachments: their text logs read like attached ones, within caps that hold however
// the archive was packed, and everything else in them left alone.
import { gzipSync } from 'node:zlib';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yazl from 'yazl';
import { expect, it } from 'vitest';
import { Engine, type Origin } from '../../src/conversation/engine.ts';
import type { Message } from '../../src/conversation/render.ts';
import { ingest, type Attachment } from '../../src/ingest/ingest.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { sample } from '../helpers/corpus.ts';
import { kb } from '../helpers/kb.ts';
import { onNvidia } from '../conversation/pastes.ts';

const LOG = onNvidia(sample('cf-0214').text);

/** A zip made by yazl, the writer twin of the reader the bot uses. */
function zipOf(files: [string, Buffer | string][], compress = true): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, body] of files) {
    if (name.endsWith('/')) zip.addEmptyDirectory(name);
    else zip.addBuffer(Buffer.isBuffer(body) ? body : Buffer.from(body), name, { compress });
  }
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

const file = (name: string, data: Buffer): Attachment => ({ name, size: data.length, read: async () => data });
const text = (m: Message[]) => m.flatMap((x) => x.blocks.map((b) => b.text)).join('\n');
const user: Origin = { platform: 'discord', channel: 'c', user: 'u1' };

it('reads the logs in a zip (the Desktop logs folder), leaving images, nested archives and escaping paths alone', async () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const inner = await zipOf([['secret.log', 'should not be read']]);
  const made = await zipOf([['logs/', ''], ['logs/main.log', 'electron started'], ['logs/comfyui.log', LOG], ['shot.png', png], ['more.zip', inner], ['ZZ/escape.log', 'outside']]);
  // yazl refuses to write a name that climbs out of the folder; a hostile zip has one all the same.
  const zip = Buffer.from(made.toString('latin1').replaceAll('ZZ/escape.log', '../escape.log'), 'latin1');
  const got = await ingest({ attachments: [file('logs.zip', zip)] });
  expect(got.problems).toEqual([]);
  expect(got.text).toContain('electron started');
  expect(got.text).toContain('Error occurred when executing KSampler');
  expect(got.text).not.toContain('should not be read');
  expect(got.text).not.toContain('outside');

  const db = openDb(join(mkdtempSync(join(tmpdir(), 'zip-')), 'cases.db'));
  const engine = new Engine({ kb, store: new CaseStore(sqliteSql(db)) });
  expect((await engine.receive(user, { attachments: [file('logs.zip', zip)] }))[0]!.caseId).toBeTruthy();
  expect(db.prepare('SELECT entry FROM cases').pluck().get()).toBe('gpu-oom-sampling');
});

it('reads a gzipped log, and refuses a .tar.gz politely', async () => {
  const got = await ingest({ attachments: [file('comfyui.log.gz', gzipSync(LOG))] });
  expect(got.problems).toEqual([]);
  expect(got.text).toContain('Error occurred when executing KSampler');
  expect((await ingest({ attachments: [file('logs.tar.gz', gzipSync('x'))] })).problems).toEqual([{ file: 'logs.tar.gz', kind: 'unsupported' }]);
});

it('refuses zip and gzip bombs in a sentence, without inflating them', async () => {
  const zeros = Buffer.alloc(50 * 1024 * 1024);
  const zipBomb = await zipOf([['comfyui.log', zeros]]);
  const gzBomb = gzipSync(zeros);
  expect(zipBomb.length).toBeLessThan(100 * 1024);
  const before = process.memoryUsage().arrayBuffers;
  const got = await ingest({ attachments: [file('logs.zip', zipBomb), file('comfyui.log.gz', gzBomb)] });
  expect(got.problems).toEqual([
    { file: 'logs.zip', kind: 'archive_bomb' },
    { file: 'comfyui.log.gz', kind: 'archive_bomb' },
  ]);
  expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(30 * 1024 * 1024);
  const db = openDb(join(mkdtempSync(join(tmpdir(), 'zip-')), 'cases.db'));
  const said = text(await new Engine({ kb, store: new CaseStore(sqliteSql(db)) }).receive(user, { attachments: [file('logs.zip', zipBomb)] }));
  expect(said).toMatch(/logs\.zip unpacks to far more than a log/);
});

it('looks at the first 20 entries only, and says so when a zip is broken or holds no log', async () => {
  const many = await zipOf(Array.from({ length: 1000 }, (_, i): [string, string] => [`part${String(i).padStart(4, '0')}.log`, `line ${i}`]));
  const got = await ingest({ attachments: [file('many.zip', many)] });
  expect(got.text).toContain('line 19');
  expect(got.text).not.toContain('line 20');
  expect((await ingest({ attachments: [file('broken.zip', many.subarray(0, 2000))] })).problems).toEqual([{ file: 'broken.zip', kind: 'archive_broken' }]);
  const images = await zipOf([['a.png', Buffer.from('89504e47', 'hex')]]);
  expect((await ingest({ attachments: [file('shots.zip', images)] })).problems).toEqual([{ file: 'shots.zip', kind: 'archive_empty' }]);
});
