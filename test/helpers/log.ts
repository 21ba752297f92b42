// The bots' real logger (pino, JSON lines) writing into memory, for tests that read what was logged.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/ops/log.ts';
import type { LogLevel } from '../../src/ops/log-settings.ts';

export interface CapturedLog {
  log: Logger;
  /** Every line as written. */
  text(): string;
  /** Every line, parsed. */
  lines(): { level: number; msg: string; [k: string]: unknown }[];
}

export function capturedLog(level: LogLevel = 'info'): CapturedLog {
  const chunks: string[] = [];
  const to = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const text = () => chunks.join('');
  return {
    log: createLogger({ level, format: 'json', to }),
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { level: number; msg: string }),
  };
}
