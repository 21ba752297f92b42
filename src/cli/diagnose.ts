// `comfyoom diagnose`: one paste to a readable or JSON diagnosis, or a JSONL batch in one process.
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import type { Classifier, Diagnosis } from '../classify/classify.ts';
import type { Kb } from '../kb/load.ts';
import { detectLang, type Lang } from '../i18n/messages.ts';
import { planSteps } from '../plan/plan.ts';
import { renderDiagnosis } from '../render/diagnosis-text.ts';
import { redact, redactValues, redactValuesQuickly } from '../redact/redact.ts';
import { decodeText } from '../ingest/decode.ts';
import { IMAGE_FILE, IMAGE_LIMITS, INGEST_LIMITS } from '../ingest/limits.ts';
import type { Ocr } from '../ingest/ocr.ts';

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

/**
 * One paste's diagnosis, readable or JSON. What it quotes from the paste (evidence lines, the
 * exception, paths) is redacted like a stored paste unless `raw` asks for the text as it was.
 */
export async function renderOne(text: string, classify: Classifier, kb: Kb, opts: { json: boolean; lang?: Lang; raw?: boolean }): Promise<string> {
  const d = classify(text);
  if (opts.json) {
    const json = diagnosisJson(d, kb);
    return JSON.stringify(opts.raw ? json : await redactValues(json), null, 2);
  }
  const readable = renderDiagnosis(d, planSteps(d.entry, d.facts, kb), opts.lang ?? detectLang(text));
  return opts.raw ? readable : redact(readable);
}

/**
 * Reads JSONL `{id, text}` lines, or `{id, file}` naming a log or screenshot (read by one OCR pool
 * for the whole batch), and writes one result line each; a bad line gets an error line, never a stop.
 * `flush` is called once the lines read so far are answered, so a caller that holds result lines
 * lets them out before waiting for more input (a client may wait for an answer before it writes on).
 */
export async function runBatch(
  file: string,
  classify: Classifier,
  write: (line: string) => void,
  { raw = false, screenshots = screenshotReader(), flush = () => {} }: { raw?: boolean; screenshots?: ScreenshotReader; flush?: () => void } = {},
): Promise<number> {
  let failures = 0;
  let n = 0;
  const fail = (id: string | null, error: string) => {
    failures++;
    write(JSON.stringify({ id, line: n, error }));
  };
  const answer = (id: string, text: string) => {
    const d = classify(text);
    const { evidence: _perFact, ...facts } = d.facts;
    write(JSON.stringify({ id, category: d.category, entry: d.entry.id, confidence: d.confidence, facts: raw ? facts : redactValuesQuickly(facts) }));
  };
  /** One input line; a promise only for a line that names a file, so a batch of texts awaits nothing per line. */
  const take = (line: string): Promise<void> | undefined => {
    n++;
    if (!line.trim()) return;
    let item: { id?: unknown; text?: unknown; file?: unknown };
    try {
      item = JSON.parse(line);
    } catch {
      return void fail(null, 'not valid JSON');
    }
    const id = typeof item?.id === 'string' || typeof item?.id === 'number' ? String(item.id) : null;
    const text = item?.text;
    if (id !== null && typeof text !== 'string' && typeof item.file === 'string' && item.file !== '-') {
      return readPasteOrScreenshot(item.file, screenshots).then(
        (read) => answer(id, read),
        (e: Error) => fail(id, e.message),
      );
    }
    if (id === null || typeof text !== 'string') return void fail(id, 'each line needs a string "id" and a string "text" or "file"');
    answer(id, text);
  };
  const input = file === '-' ? process.stdin : createReadStream(file);
  input.setEncoding('utf8');
  // Lines end at \n, \r\n or a lone \r, as readline reads them; a \r at the end of a chunk may be
  // the first half of a \r\n, so it waits for the next one.
  let rest = '';
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      // A chunk inside one long line only grows it (joined once, when the line ends): reading the
      // line so far again at every chunk would take time quadratic in its length.
      if (!LINE_BREAK.test(chunk)) {
        rest += chunk;
        continue;
      }
      let text = rest + chunk;
      const held = text.endsWith('\r') ? '\r' : '';
      if (held) text = text.slice(0, -1);
      const lines = text.split(LINE_BREAK);
      rest = lines.pop()! + held;
      for (const line of lines) {
        const reading = take(line);
        if (reading) await reading;
      }
      flush();
    }
    if (rest) await take(rest.replace(/\r$/, ''));
  } finally {
    await screenshots.close();
  }
  return failures;
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * At most `limit` bytes of a file or stdin, or a clear refusal: the same cap as a file sent in
 * chat, so a 50 MB log costs nothing before it is refused.
 */
function readCapped(file: string | undefined, limit: number): Buffer {
  const name = file === undefined || file === '-' ? 'stdin' : file;
  // A terminal's stdin is non-blocking once Node has touched it (reads fail with EAGAIN): read the
  // terminal through a descriptor of its own, which blocks until the user ends the paste.
  const fd = name !== 'stdin' ? openSync(file!, 'r') : process.stdin.isTTY && process.platform !== 'win32' ? openSync('/dev/stdin', 'r') : 0;
  try {
    if (name !== 'stdin' && fstatSync(fd).isDirectory()) throw new UserError(`${name} is a folder, not a log file: give the log file itself.`);
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.alloc(1 << 16);
    for (let n: number; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) {
      total += n;
      if (total > limit) throw new UserError(`${name} is larger than ${Math.round(limit / (1024 * 1024))} MB, the limit for this kind of file. For a log, the error is at the end: keep the last few hundred lines and try again.`);
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    return Buffer.concat(chunks);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EISDIR') throw new UserError(`${name} is a folder, not a log file: give the log file itself.`);
    throw e;
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

/** A paste from a file or stdin; refuses binaries and oversized files with a clear message instead of classifying noise. */
export function readPaste(file: string | undefined): string {
  const decoded = decodeText(readCapped(file, INGEST_LIMITS.maxFileBytes));
  if (!decoded.ok) throw new UserError(`${file ?? 'stdin'} looks like a binary file, not a log. Paste the console text or attach a .txt/.log file.`);
  return decoded.text;
}

/**
 * Screenshots of one run read by one OCR pool, started at the first screenshot (a run of text logs
 * loads no image or OCR code) and closed with `close`. `open` makes the pool (the tests count them).
 */
export function screenshotReader(open: () => Promise<Ocr> = async () => new (await import('../ingest/ocr.ts')).OcrPool()) {
  let pool: Promise<Ocr> | undefined;
  return {
    async read(file: string): Promise<string> {
      const image = readCapped(file, IMAGE_LIMITS.maxBytes);
      const ocr = await (pool ??= open());
      const prepared = await ocr.prepare(image);
      if (!prepared.ok) throw new UserError(`${file}: ${prepared.reason.replace(/_/g, ' ')}`);
      const read = await ocr.recognize(prepared);
      process.stderr.write(`(read ${file} by OCR, confidence ${Math.round(read.confidence)}%)\n`);
      return read.text;
    },
    async close(): Promise<void> {
      if (pool) await (await pool).close();
    },
  };
}

export type ScreenshotReader = ReturnType<typeof screenshotReader>;

/** A paste, or the text OCR reads from a screenshot (png/jpg/webp). */
export async function readPasteOrScreenshot(file: string | undefined, screenshots: ScreenshotReader): Promise<string> {
  if (file === undefined || file === '-' || !IMAGE_FILE.test(file)) return readPaste(file);
  return screenshots.read(file);
}

/**
 * `comfyoom diagnose FILE...`: each file (or stdin) diagnosed on its own, under its name when there
 * are several; screenshots read concurrently by one pool of as many workers as there are
 * screenshots, up to the cores. Among several, a file that cannot be read is said on stderr and the
 * others go on. Returns how many failed.
 */
export async function diagnoseFiles(
  files: string[],
  classify: Classifier,
  kb: Kb,
  opts: { json: boolean; lang?: Lang; raw?: boolean },
  out: (text: string) => void,
  screenshots = screenshotReader(async () => new (await import('../ingest/ocr.ts')).OcrPool({ size: files.filter((f) => IMAGE_FILE.test(f)).length })),
): Promise<number> {
  const named = files.length ? files : [undefined];
  try {
    const read = await Promise.all(
      named.map((f) =>
        readPasteOrScreenshot(f, screenshots).catch((e: unknown) => {
          // A file missing or refused; anything else is a bug, and stops the run.
          if (named.length === 1 || !(e instanceof UserError || (e as NodeJS.ErrnoException).code)) throw e;
          process.stderr.write(`comfyoom: ${(e as Error).message}\n`);
          return undefined;
        }),
      ),
    );
    const shown: { file: string; text: string }[] = [];
    for (const [i, text] of read.entries()) if (text !== undefined) shown.push({ file: named[i] ?? '-', text: await renderOne(text, classify, kb, opts) });
    if (named.length === 1) shown.forEach((s) => out(s.text));
    else if (opts.json) out(JSON.stringify(shown.map((s) => ({ file: s.file, ...JSON.parse(s.text) })), null, 2));
    else out(shown.map((s) => `== ${s.file} ==\n${s.text}`).join('\n\n'));
    return read.filter((t) => t === undefined).length;
  } finally {
    await screenshots.close();
  }
}

export class UserError extends Error {}
