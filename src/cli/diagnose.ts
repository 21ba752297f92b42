// `comfyoom diagnose`: one paste to a readable or JSON diagnosis, or a JSONL batch in one process.
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Classifier, Diagnosis } from '../classify/classify.ts';
import type { Kb } from '../kb/load.ts';
import { detectLang, type Lang } from '../i18n/messages.ts';
import { planSteps } from '../plan/plan.ts';
import { renderDiagnosis } from '../render/diagnosis-text.ts';
import { decodeText } from '../ingest/decode.ts';
import { prepareForOcr } from '../ingest/image.ts';
import { IMAGE_FILE } from '../ingest/ingest.ts';
import { OcrPool } from '../ingest/ocr.ts';

/** The JSON form of a diagnosis: what a script needs, without the kb texts. */
export function diagnosisJson(d: Diagnosis, kb: Kb) {
  const { evidence: _perFact, ...facts } = d.facts;
  const plan = planSteps(d.entry, d.facts, kb);
  return {
    category: d.category,
    entry: d.entry.id,
    confidence: d.confidence,
    facts,
    evidence: d.evidence,
    runnersUp: d.runnersUp,
    steps: plan.steps.map((s) => s.id),
    skipped: plan.skipped.map((s) => ({ id: s.id, reason: s.reason })),
    truncated: d.truncated,
    kbVersion: d.kbVersion,
  };
}

export function renderOne(text: string, classify: Classifier, kb: Kb, opts: { json: boolean; lang?: Lang }): string {
  const d = classify(text);
  if (opts.json) return JSON.stringify(diagnosisJson(d, kb), null, 2);
  return renderDiagnosis(d, planSteps(d.entry, d.facts, kb), opts.lang ?? detectLang(text));
}

/** Reads JSONL `{id, text}` lines and writes one result line each; a bad line gets an error line, never a stop. */
export async function runBatch(file: string, classify: Classifier, write: (line: string) => void): Promise<number> {
  const rl = createInterface({ input: file === '-' ? process.stdin : createReadStream(file), crlfDelay: Infinity });
  let failures = 0;
  let n = 0;
  for await (const raw of rl) {
    n++;
    if (!raw.trim()) continue;
    let item: { id?: unknown; text?: unknown };
    try {
      item = JSON.parse(raw);
    } catch {
      failures++;
      write(JSON.stringify({ id: null, line: n, error: 'not valid JSON' }));
      continue;
    }
    const id = typeof item?.id === 'string' || typeof item?.id === 'number' ? String(item.id) : null;
    if (id === null || typeof item.text !== 'string') {
      failures++;
      write(JSON.stringify({ id, line: n, error: 'each line needs a string "id" and a string "text"' }));
      continue;
    }
    const d = classify(item.text);
    const { evidence: _perFact, ...facts } = d.facts;
    write(JSON.stringify({ id, category: d.category, entry: d.entry.id, confidence: d.confidence, facts }));
  }
  return failures;
}

/** A paste from a file or stdin; refuses binaries with a clear message instead of classifying noise. */
export function readPaste(file: string | undefined): string {
  const decoded = decodeText(readFileSync(file === undefined || file === '-' ? 0 : file));
  if (!decoded.ok) throw new UserError(`${file ?? 'stdin'} looks like a binary file, not a log. Paste the console text or attach a .txt/.log file.`);
  return decoded.text;
}

/** A paste, or the text OCR reads from a screenshot (png/jpg/webp). */
export async function readPasteOrScreenshot(file: string | undefined): Promise<string> {
  if (file === undefined || file === '-' || !IMAGE_FILE.test(file)) return readPaste(file);
  const prepared = await prepareForOcr(readFileSync(file));
  if (!prepared.ok) throw new UserError(`${file}: ${prepared.reason.replace(/_/g, ' ')}`);
  const ocr = new OcrPool({ size: 1 });
  try {
    const read = await ocr.recognize(prepared.png);
    process.stderr.write(`(read ${file} by OCR, confidence ${Math.round(read.confidence)}%)\n`);
    return read.text;
  } finally {
    await ocr.close();
  }
}

export class UserError extends Error {}
