// Gathers the text to diagnose from a message: its own text plus attached logs. Each file is
// checked against the limits before it is read, and every refusal is reported, never thrown.
import { decodeText } from './decode.ts';
import { IMAGE_FILE, IMAGE_LIMITS, INGEST_LIMITS, TEXT_FILE } from './limits.ts';
import { OcrTimeout, type Ocr, type OcrResult } from './ocr.ts';
import { linkProblem } from './paste-links.ts';
import { isArchive, readArchive } from './archive.ts';
import type { Attachment, IngestProblem } from './types.ts';

// The room's door: what a message is made of and what can go wrong reading it.
export type { Attachment, IngestProblem };

export interface Inbound {
  text?: string;
  attachments?: Attachment[];
}

export interface Ingested {
  text: string;
  problems: IngestProblem[];
  /** What OCR read from screenshots, with Tesseract's confidence (0..100) and the time it took. */
  ocr: { file: string; text: string; confidence: number; ms: number }[];
  /** The text as it reads where every screenshot's unclear line breaks are joined (see OcrResult.otherReading); only when it differs. */
  otherText?: string;
  /** True when some of the text was typed or came from a text file (not only OCR). */
  hasTypedText: boolean;
}


export function kindOf(a: Attachment): 'text' | 'image' | 'archive' | 'other' {
  if (isArchive(a.name, a.contentType)) return 'archive';
  if (TEXT_FILE.test(a.name) || a.contentType?.startsWith('text/') || a.contentType === 'application/json') return 'text';
  if (IMAGE_FILE.test(a.name) || a.contentType?.startsWith('image/')) return 'image';
  return 'other';
}

/** Past this, a text file takes the engine long enough to read that the user should see it is at work. */
const SLOW_FILE_BYTES = 256 * 1024;

/** Whether reading a message will take a noticeable while: a screenshot (OCR) or a large file. */
export function takesTime(inbound: Inbound): boolean {
  return (inbound.attachments ?? []).some((a) => kindOf(a) === 'image' || (a.size ?? 0) > SLOW_FILE_BYTES);
}

async function readImage(a: Attachment, ocr: Ocr): Promise<OcrResult | IngestProblem['kind']> {
  const buf = await a.read();
  const prepared = await ocr.prepare(buf);
  if (!prepared.ok) return prepared.reason === 'not_an_image' ? 'unsupported' : prepared.reason;
  try {
    return await ocr.recognize(prepared);
  } catch (e) {
    return e instanceof OcrTimeout ? 'ocr_timeout' : 'ocr_failed';
  }
}

/** Reads a message's text, text files and (when OCR is available) screenshots. */
export async function ingest(inbound: Inbound, ocr?: Ocr): Promise<Ingested> {
  const parts: string[] = [];
  /** The same parts, with each screenshot's other reading. */
  const others: string[] = [];
  const problems: IngestProblem[] = [];
  const read: Ingested['ocr'] = [];
  let hasTypedText = false;
  if (inbound.text?.trim()) {
    parts.push(inbound.text);
    hasTypedText = true;
  }
  const files = inbound.attachments ?? [];
  for (const [i, a] of files.entries()) {
    if (i >= INGEST_LIMITS.maxFiles) {
      problems.push({ file: a.name, kind: 'too_many' });
      continue;
    }
    const kind = kindOf(a);
    if (kind === 'image') {
      if (!ocr) {
        problems.push({ file: a.name, kind: 'image' });
        continue;
      }
      if (a.size !== undefined && a.size > IMAGE_LIMITS.maxBytes) {
        problems.push({ file: a.name, kind: 'too_big' });
        continue;
      }
      const got = await readImage(a, ocr).catch(() => 'unreadable' as const);
      if (typeof got === 'string') problems.push({ file: a.name, kind: got });
      else {
        const { otherReading, ...result } = got;
        read.push({ file: a.name, ...result });
        parts.push(got.text);
        others[parts.length - 1] = otherReading ?? got.text;
      }
      continue;
    }
    if (kind === 'other') {
      problems.push({ file: a.name, kind: 'unsupported' });
      continue;
    }
    if (a.size !== undefined && a.size > INGEST_LIMITS.maxFileBytes) {
      problems.push({ file: a.name, kind: 'too_big' });
      continue;
    }
    let buf: Buffer;
    try {
      buf = await a.read();
    } catch (e) {
      problems.push({ file: a.name, kind: linkProblem(e) ?? 'unreadable' });
      continue;
    }
    if (buf.length > INGEST_LIMITS.maxFileBytes) {
      problems.push({ file: a.name, kind: 'too_big' });
      continue;
    }
    if (kind === 'archive') {
      const unpacked = await readArchive(a.name, buf);
      if ('problem' in unpacked) problems.push({ file: a.name, kind: unpacked.problem });
      else {
        parts.push(...unpacked.entries.map((e) => e.text));
        hasTypedText = true;
      }
      continue;
    }
    const decoded = decodeText(buf);
    if (!decoded.ok) problems.push({ file: a.name, kind: 'binary' });
    else {
      parts.push(decoded.text);
      hasTypedText = true;
    }
  }
  const text = parts.join('\n\n');
  const otherText = parts.map((p, i) => others[i] ?? p).join('\n\n');
  return { text, ...(otherText !== text ? { otherText } : {}), problems, ocr: read, hasTypedText };
}
