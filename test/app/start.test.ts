// A platform that fails at start (here Discord, unreachable) never stops the other: Slack runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDiscord } from '../../src/adapters/discord/bot.ts';
import { startSlack } from '../../src/adapters/slack/bot.ts';
import { startAll } from '../../src/app/bots.ts';
import { Engine } from '../../src/conversation/engine.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { kb } from '../helpers/kb.ts';
import { startFakeSlack } from '../slack/fake-slack.ts';
import { fakeOptions, memoryLogger } from '../slack/harness.ts';

describe('starting the bots', () => {
  it('goes on with Slack when Discord cannot start, and names what failed', async () => {
    const fake = await startFakeSlack(fakeOptions);
    const engine = new Engine({ kb, store: new CaseStore(sqliteSql(openDb(join(mkdtempSync(join(tmpdir(), 'start-')), 'cases.db')))) });
    const said: string[] = [];
    const running = await startAll(
      [
        ['Discord', () => startDiscord({ config: { token: 'x'.repeat(72), watchChannels: [], messageContent: true, solvedTag: 'Solved' }, engine, api: 'http://127.0.0.1:9/api', log: () => undefined })],
        ['Slack', () => startSlack({ config: { botToken: 'xoxb-t', mode: 'http', signingSecret: 's'.repeat(32), port: 0, helpers: [], admins: [] }, engine, slackApiUrl: fake.api, retryConfig: { retries: 0 }, host: '127.0.0.1', logger: memoryLogger().logger })],
      ],
      (line) => said.push(line),
    );
    expect(running.map((r) => r.platform)).toEqual(['slack']);
    expect(said).toEqual([expect.stringMatching(/^comfyoom: could not connect to Discord, going on without it: /)]);
    for (const r of running) await r.stop();
    await fake.close();
  });
});
