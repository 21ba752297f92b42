// The bots' log: JSON lines (pino) for log collectors, or a readable form for a terminal. Lines say
// what happened to which case, message or request by id; paste text never goes in (the engine
// keeps pastes to itself, and errors are logged by message and stack).
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from '../app/config.ts';

export type { Logger };

export interface LogOptions {
  level: LogLevel;
  /** Unset: pretty when stderr is a terminal, JSON otherwise. */
  format?: LogFormat;
  /** Where lines go; stderr by default. */
  to?: NodeJS.WritableStream;
}

export function createLogger(o: LogOptions): Logger {
  const terminal = !o.to && process.stderr.isTTY === true;
  const format = o.format ?? (terminal ? 'pretty' : 'json');
  // Written synchronously, so the last lines before an exit are not lost.
  const stream =
    format === 'pretty'
      ? pretty({ destination: o.to ?? 2, sync: true, colorize: terminal, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
      : (o.to ?? pino.destination({ dest: 2, sync: true }));
  return pino({ level: o.level }, stream);
}

/** The Discord adapter's log calls: a note, or a failure with its error. */
export const eventLog =
  (log: Logger) =>
  (what: string, err?: unknown): void =>
    err === undefined ? log.warn(what) : log.warn({ err }, what);
