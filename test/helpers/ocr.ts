// One OCR pool for every test file a vitest worker runs that reads screenshots: those files run
// without isolation (the screenshots project in vitest.config.ts), so this module, and the pool, is
// loaded once per worker instead of once per file. Starting a pool costs seconds of every core.
// It is never closed by a test file (another may still use it); it ends with the worker's process.
import { OcrPool } from '../../src/ingest/ocr.ts';

export const ocr = new OcrPool();
