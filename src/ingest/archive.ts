// Zipped and gzipped logs (people zip the Desktop app's logs folder, or a long console log): read
// with yauzl, a streaming zip reader, and zlib, never trusting the sizes an archive states: reading
// stops at the caps however small the file was. Only text logs and JSON inside are read; nothing is
// ever written to disk.
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import { decodeText } from './decode.ts';
import { ARCHIVE_LIMITS, TEXT_FILE } from './limits.ts';

export type ArchiveProblem = 'archive_bomb' | 'archive_empty' | 'archive_broken' | 'unsupported';
export type ArchiveRead = { entries: { name: string; text: string }[] } | { problem: ArchiveProblem };

export const ARCHIVE_FILE = /\.(zip|gz)$/i;
const ARCHIVE_TYPES = new Set(['application/zip', 'application/x-zip-compressed', 'application/gzip', 'application/x-gzip']);

export const isArchive = (name: string, contentType?: string) => ARCHIVE_FILE.test(name) || ARCHIVE_TYPES.has(contentType?.split(';')[0]?.trim() ?? '');

class Bomb extends Error {}

/** The text files an archive holds, or why none can be read. */
export async function readArchive(name: string, bytes: Buffer): Promise<ArchiveRead> {
  if (/\.(tar\.gz|tgz)$/i.test(name)) return { problem: 'unsupported' };
  const zip = bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) || bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const gz = bytes[0] === 0x1f && bytes[1] === 0x8b;
  try {
    if (gz) return textsOf([{ name: name.replace(/\.gz$/i, ''), bytes: await gunzipCapped(bytes) }]);
    if (zip) return textsOf(await unzipTexts(bytes));
    return { problem: 'archive_broken' };
  } catch (e) {
    return { problem: e instanceof Bomb ? 'archive_bomb' : 'archive_broken' };
  }
}

function textsOf(files: { name: string; bytes: Buffer }[]): ArchiveRead {
  const entries = files.flatMap((f) => {
    const decoded = decodeText(f.bytes);
    return decoded.ok && decoded.text.trim() ? [{ name: f.name, text: decoded.text }] : [];
  });
  return entries.length ? { entries } : { problem: 'archive_empty' };
}

async function gunzipCapped(bytes: Buffer): Promise<Buffer> {
  const cap = Math.min(ARCHIVE_LIMITS.maxUnpackedBytes, bytes.length * ARCHIVE_LIMITS.maxRatio);
  try {
    return await promisify(gunzip)(bytes, { maxOutputLength: cap });
  } catch (e) {
    // zlib stops inflating at maxOutputLength and says so with a RangeError.
    throw (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError ? new Bomb() : e;
  }
}

/** The archive's text entries, read through in order within the caps. */
function unzipTexts(bytes: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
  return new Promise((resolve, reject) => {
    // Names are checked here, not by yauzl, which would refuse the whole archive for one entry named ../x.log.
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, decodeStrings: false }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const out: { name: string; bytes: Buffer }[] = [];
      let seen = 0;
      let unpacked = 0;
      let failed = false;
      const fail = (e: Error) => {
        if (failed) return;
        failed = true;
        zip.close();
        reject(e);
      };
      zip.on('error', fail);
      zip.on('end', () => resolve(out));
      zip.on('entry', (entry: yauzl.Entry) => {
        seen++;
        const name = (entry.fileName as unknown as Buffer).toString('utf8');
        const wanted = !name.endsWith('/') && !name.split(/[\\/]/).includes('..') && !/^([\\/]|[A-Za-z]:)/.test(name) && TEXT_FILE.test(name);
        if (seen > ARCHIVE_LIMITS.maxEntries) return void (zip.close(), resolve(out));
        if (!wanted) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return fail(e ?? new Error('no stream'));
          const cap = Math.min(ARCHIVE_LIMITS.maxUnpackedBytes - unpacked, Math.max(entry.compressedSize, 1) * ARCHIVE_LIMITS.maxRatio);
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > cap) {
              stream.destroy();
              return fail(new Bomb());
            }
            chunks.push(chunk);
          });
          stream.on('error', fail);
          stream.on('end', () => {
            unpacked += size;
            out.push({ name, bytes: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
