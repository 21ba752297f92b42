// What a message brings to read and what can go wrong reading it, apart from the reading itself
// (ingest.ts) so the readers it calls (paste-links.ts) can name them without importing it.
import type { ArchiveProblem } from './archive.ts';

export interface Attachment {
  name: string;
  contentType?: string;
  /** Size in bytes, when the platform says it before download. */
  size?: number;
  read(): Promise<Buffer>;
}

export type IngestProblem = {
  file: string;
  kind: 'too_big' | 'binary' | 'unsupported' | 'too_many' | 'unreadable' | 'image' | 'too_many_pixels' | 'ocr_timeout' | 'ocr_failed' | 'link_unreadable' | 'link_encrypted' | ArchiveProblem;
};
