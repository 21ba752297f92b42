// The bots' configuration for tests: both platforms (Slack over HTTP), the operations port on any free port.
import type { Config } from '../../src/app/config.ts';
import { TOKEN } from '../discord/harness.ts';
import { BOT_TOKEN, SECRET } from '../slack/harness.ts';

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
