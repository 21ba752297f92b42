// The bot side of bench/footprint.ts: the real composition (startBots: Discord and Slack, the
// engine, SQLite, its worker and OCR pools) in a process of its own, pointed at the fakes the bench
// process hosts, so the resident memory the bench reads is the bot's alone. Plain JavaScript on
// the compiled dist/, as `npm start` runs it: tsx's compiler would be counted otherwise.
import { startBots } from '../dist/app/bots.js';

/** @type {import('../src/app/bots.ts').Bots | undefined} */
let bots;

process.on('message', (m) => void handle(m));

/** @param {{ start: { discordApi: string; slackApi: string; db: string; discordToken: string; slackToken: string; signingSecret: string; shards?: number } } | { memory: true } | { stop: true }} m */
async function handle(m) {
  if ('memory' in m) process.send({ memory: process.memoryUsage() });
  else if ('start' in m) {
    const s = m.start;
    const config = {
      db: s.db,
      idleMs: 86_400_000,
      retentionDays: 90,
      // A burst of forty from one user is what is measured, not the per-user limits.
      ratePerMinute: 1000,
      adaptive: 'off',
      log: { level: 'error' },
      discord: { token: s.discordToken, watchChannels: [], messageContent: true, solvedTag: 'Solved', ...(s.shards ? { shards: s.shards } : {}) },
      slack: { botToken: s.slackToken, mode: 'http', signingSecret: s.signingSecret, port: 0, helpers: [], admins: [] },
    };
    bots = await startBots(config, { discordApi: s.discordApi, slackApiUrl: s.slackApi, slackRetry: { retries: 0 }, slackHost: '127.0.0.1' });
    if (!bots || bots.running.length !== 2) throw new Error('the bot did not connect to both fakes');
    process.send({ ready: true });
  } else {
    await bots?.stop();
    process.send({ stopped: true }, undefined, {}, () => process.exit(0));
  }
}
