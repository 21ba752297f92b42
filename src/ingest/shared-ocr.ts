// One set of OCR workers for every shard on a machine: a shard prepares a screenshot in its own
// work pool and sends the prepared page to the shard manager over the IPC channel ShardingManager
// keeps; the manager reads it with its one OCR pool (which starts at the first screenshot and
// stops after a quiet minute) and sends the text back. Sixteen shards then hold one set of
// Tesseract workers (about 250 MB) instead of one each.
import { OcrTimeout, type Ocr, type OcrInput, type OcrResult } from './ocr.ts';
import type { Prepared } from './image.ts';

/** The key of a shard's request, and of the manager's answer. */
const REQUEST = 'comfyoomOcr';
const ANSWER = 'comfyoomOcrRead';
/** Past the pool's own time budget (queued behind other shards' pages, then read). */
const ANSWER_MS = 60_000;

/** Either end of the channel: a child process seen from itself (process), or a shard seen from its manager. */
export interface Channel {
  send(message: unknown): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

interface Request {
  id: number;
  /** The page's grey levels in base64: the channel carries JSON. */
  grey: string;
  page: OcrInput['page'];
  bands: OcrInput['bands'];
}

type Answer = { id: number; result: OcrResult } | { id: number; problem: 'timeout' | 'failed' };

/** In a shard: OCR that prepares here and reads in the manager. */
export function ocrThroughManager(channel: Channel, prepare: (image: Buffer) => Promise<Prepared>): Ocr {
  let requests = 0;
  return {
    prepare,
    recognize: (image) =>
      new Promise<OcrResult>((resolve, reject) => {
        const id = ++requests;
        const done = (answer?: Answer) => {
          clearTimeout(timer);
          channel.off('message', onMessage);
          if (!answer || ('problem' in answer && answer.problem === 'timeout')) reject(new OcrTimeout('the shard manager did not read the screenshot in time'));
          else if ('problem' in answer) reject(new Error('the shard manager could not read the screenshot'));
          else resolve(answer.result);
        };
        const onMessage = (m: unknown) => {
          const answer = (m as Record<string, unknown> | null)?.[ANSWER] as Answer | undefined;
          if (answer?.id === id) done(answer);
        };
        const timer = setTimeout(() => done(), ANSWER_MS);
        channel.on('message', onMessage);
        const request: Request = { id, grey: Buffer.from(image.grey.buffer, image.grey.byteOffset, image.grey.byteLength).toString('base64'), page: image.page, bands: image.bands };
        channel.send({ [REQUEST]: request });
      }),
    // The workers are the manager's.
    close: async () => undefined,
  };
}

/** In the manager: reads each page a shard sends with `ocr`, and answers. Returns how to stop. */
export function serveOcr(channel: Channel, ocr: Ocr): () => void {
  const onMessage = (m: unknown) => {
    const request = (m as Record<string, unknown> | null)?.[REQUEST] as Request | undefined;
    if (!request || typeof request.id !== 'number') return;
    const grey = new Uint8Array(Buffer.from(request.grey, 'base64'));
    void ocr.recognize({ grey, page: request.page, bands: request.bands }).then(
      (result): Answer => ({ id: request.id, result }),
      (e: unknown): Answer => ({ id: request.id, problem: e instanceof OcrTimeout ? 'timeout' : 'failed' }),
    ).then((answer) => {
      try {
        channel.send({ [ANSWER]: answer });
      } catch {
        // The shard died meanwhile; its successor asks again if its user does.
      }
    });
  };
  channel.on('message', onMessage);
  return () => channel.off('message', onMessage);
}
