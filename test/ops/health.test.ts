// /healthz follows the connections: ready while discord.js' gateway and Slack's Socket Mode are up,
// 503 naming the one that dropped while it is down, ready again once it is back. Slack over Socket
// Mode is timed too. Slack starts only once Slack has accepted its bot token (auth.test): neither
// Socket Mode nor HTTP mode needs it to come up.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBots } from '../../src/app/bots.ts';
import { capturedLog } from '../helpers/log.ts';
import { startFakeDiscord } from '../discord/fake-discord.ts';
import { BOT, GUILD, HELP } from '../discord/harness.ts';
import { startFakeSlack } from '../slack/fake-slack.ts';
import { APP_TOKEN, BOT_TOKEN, fakeOptions, slashPayload, ALICE } from '../slack/harness.ts';
import { botConfig, eventually } from './bots.ts';
import { parseMetrics, sample } from './prom.ts';

describe('readiness follows the connections', () => {
  it('is ready with the gateway and Socket Mode up, 503 naming the one down while it is, ready again when it is back', async () => {
    const discord = await startFakeDiscord({ botId: BOT, guildId: GUILD, channels: [{ id: HELP, type: 0, name: 'help' }] });
    const slack = await startFakeSlack(fakeOptions);
    const config = botConfig(join(mkdtempSync(join(tmpdir(), 'comfyoom-health-')), 'cases.db'), {
      slack: { botToken: BOT_TOKEN, mode: 'socket', appToken: APP_TOKEN, port: 0, helpers: [], admins: [] },
    });
    const bots = (await startBots(config, { discordApi: discord.api, slackApiUrl: slack.api, slackRetry: { retries: 0 }, log: capturedLog().log }))!;
    const health = async () => {
      const res = await fetch(`http://127.0.0.1:${bots.ops!.port}/healthz`);
      return { status: res.status, body: (await res.json()) as { ready: boolean; checks: Record<string, string> } };
    };
    try {
      expect(await eventually(health, (h) => h.status === 200)).toEqual({ status: 200, body: { ready: true, checks: { discord: 'ok', slack: 'ok', store: 'ok' } } });

      await slack.envelope('slash_commands', slashPayload(slack, ALICE, 'CUDA out of memory'));
      const m = parseMetrics(await (await fetch(`http://127.0.0.1:${bots.ops!.port}/metrics`)).text());
      expect(sample(m, 'comfyoom_ack_seconds_count', { platform: 'slack' })).toBe(1);

      // Slack asks the app to reconnect (it recycles its servers so), and takes its time to hand out a new URL.
      slack.delay('apps.connections.open', 1500);
      void slack.envelope('disconnect' as 'events_api', { reason: 'refresh_requested' }, 100).catch(() => undefined);
      expect(await eventually(health, (h) => h.status === 503)).toEqual({ status: 503, body: { ready: false, checks: { discord: 'ok', slack: 'Socket Mode not connected', store: 'ok' } } });
      expect((await eventually(health, (h) => h.status === 200)).body.checks).toEqual({ discord: 'ok', slack: 'ok', store: 'ok' });

      // Discord goes away altogether: the gateway is down while discord.js tries again.
      await discord.close();
      expect(await eventually(health, (h) => h.status === 503)).toEqual({
        status: 503,
        body: { ready: false, checks: { discord: expect.stringMatching(/^gateway not connected \(/), slack: 'ok', store: 'ok' } },
      });
    } finally {
      await bots.stop();
      await slack.close();
    }
  }, 60_000);

  it('names a Slack bot token that Slack refuses, while Discord and the store are ready', async () => {
    const discord = await startFakeDiscord({ botId: BOT, guildId: GUILD, channels: [{ id: HELP, type: 0, name: 'help' }] });
    const slack = await startFakeSlack(fakeOptions);
    const logged = capturedLog();
    // Over HTTP, where nothing else would check the token: the receiver would listen all the same.
    slack.fail('auth.test', { error: 'invalid_auth' });
    const config = botConfig(join(mkdtempSync(join(tmpdir(), 'comfyoom-health-')), 'cases.db'));
    const bots = (await startBots(config, { discordApi: discord.api, slackApiUrl: slack.api, slackRetry: { retries: 0 }, slackHost: '127.0.0.1', log: logged.log }))!;
    try {
      const res = await fetch(`http://127.0.0.1:${bots.ops!.port}/healthz`);
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 503,
        body: { ready: false, checks: { discord: 'ok', slack: expect.stringMatching(/^did not start: SLACK_BOT_TOKEN was refused \(invalid_auth\)/), store: 'ok' } },
      });
      expect(logged.lines().map((l) => l.msg).join('\n')).toMatch(/could not connect to Slack, going on without it: SLACK_BOT_TOKEN was refused \(invalid_auth\)/);
      expect(bots.running.map((r) => r.platform)).toEqual(['discord']);
    } finally {
      await bots.stop();
      await slack.close();
      await discord.close();
    }
  }, 60_000);
});
