// The bots' log: JSON lines (pino) for log collectors, or a readable form for a terminal. Lines say
// what happened to which case, message or request by id; paste text never goes in (the engine
// keeps pastes to itself, and errors are logged by type, message and stack only).
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat, LogLevel } from './log-settings.ts';

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
  return pino({ level: o.level, serializers: { err: errorOnly } }, stream);
}

/**
 * An error as its type, message, code, status and stack, and its cause so: pino's own serializer
 * keeps every property, and a platform's error carries the request it failed on (a diagnosis that
 * quotes the paste).
 */
export function errorOnly(e: unknown): Record<string, unknown> {
  if (!(e instanceof Error)) return { message: String(e) };
  const { code, status } = e as { code?: unknown; status?: unknown };
  return {
    type: e.name,
    message: e.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(typeof status === 'number' ? { status } : {}),
    stack: e.stack,
    ...(e.cause !== undefined ? { cause: errorOnly(e.cause) } : {}),
  };
}

/** The Discord adapter's log calls: a note (info: "2 shards connected"), or a failure with its error (warn). */
export const eventLog =
  (log: Logger) =>
  (what: string, err?: unknown): void =>
    err === undefined ? log.info(what) : log.warn({ err }, what);
