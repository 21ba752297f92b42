// For the operations tests: the bots' configuration (both platforms, Slack over HTTP, the operations
// port on any free port), and a wait for what the bots do after answering.
import type { Config } from '../../src/app/config.ts';
import { TOKEN } from '../discord/harness.ts';
import { BOT_TOKEN, SECRET } from '../slack/harness.ts';
import { PATIENCE_MS } from '../helpers/patience.ts';

export function botConfig(db: string, over: Partial<Config> = {}): Config {
  return {
    db,
    idleMs: 86_400_000,
    retentionDays: 90,
    ratePerMinute: 100,
    adaptive: 'off',
    log: { level: 'info' },
    http: { port: 0, host: '127.0.0.1' },
    discord: { token: TOKEN, watchChannels: [], messageContent: true, solvedTag: 'Solved' },
    slack: { botToken: BOT_TOKEN, mode: 'http', signingSecret: SECRET, port: 0, helpers: [], admins: [] },
    ...over,
  };
}

/** Reads until `ok` holds or the time is up, and returns the last reading for the test to check. */
export async function eventually<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = PATIENCE_MS): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Other test files share the machine's cores, each with its bots and worker pool: a fake's wait for the bot allows this much. */
export const SLOW = { timeoutMs: PATIENCE_MS };
