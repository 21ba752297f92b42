import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/app/config.ts';

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe('configuration from the environment', () => {
  it('reads the help-channel settings: Message Content off, the helper role and group, the Solved tag', () => {
    const c = loadConfig({ DISCORD_TOKEN: 'x'.repeat(72), DISCORD_MESSAGE_CONTENT: 'false', DISCORD_HELPER_ROLE: '1300000000000000009', DISCORD_SOLVED_TAG: 'Fixed', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1', SLACK_HELPER_GROUP: 'S0HELPERS' });
    expect(c.discord).toMatchObject({ messageContent: false, helperRole: '1300000000000000009', solvedTag: 'Fixed' });
    expect(c.slack).toMatchObject({ helperGroup: 'S0HELPERS' });
    expect(problems({ DISCORD_TOKEN: 'x'.repeat(72), DISCORD_MESSAGE_CONTENT: 'maybe', DISCORD_HELPER_ROLE: 'helpers' })).toEqual([
      'DISCORD_MESSAGE_CONTENT: DISCORD_MESSAGE_CONTENT must be true or false',
      'DISCORD_HELPER_ROLE: DISCORD_HELPER_ROLE must be a numeric role id',
    ]);
  });

  it('has working defaults and no chat platform without tokens', () => {
    expect(loadConfig({})).toEqual({ db: 'data/comfyoom.db', idleMs: 24 * 3_600_000, retentionDays: 90, ratePerMinute: 6, adaptive: 'auto', log: { level: 'info' } });
    expect(loadConfig({ COMFYOOM_RETENTION_DAYS: '30' }).retentionDays).toBe(30);
  });

  it('reads COMFYOOM_ADAPTIVE as off, suggest or on, and refuses anything else by name', () => {
    expect(loadConfig({ COMFYOOM_ADAPTIVE: 'OFF' }).adaptive).toBe('off');
    expect(loadConfig({ COMFYOOM_ADAPTIVE: 'on' }).adaptive).toBe('on');
    expect(problems({ COMFYOOM_ADAPTIVE: 'yes' })).toEqual(['COMFYOOM_ADAPTIVE: COMFYOOM_ADAPTIVE must be off, suggest or on (unset: suggest until enough confirmed fixes, then on)']);
  });

  it('reads COMFYOOM_SHARDS as auto or a count for the Discord bot, unset meaning one process', () => {
    const discord = { DISCORD_TOKEN: 'x'.repeat(72) };
    expect(loadConfig(discord).discord).not.toHaveProperty('shards');
    expect(loadConfig({ ...discord, COMFYOOM_SHARDS: 'auto' }).discord?.shards).toBe('auto');
    expect(loadConfig({ ...discord, COMFYOOM_SHARDS: '4' }).discord?.shards).toBe(4);
    expect(problems({ ...discord, COMFYOOM_SHARDS: '0' })).toEqual(['COMFYOOM_SHARDS: COMFYOOM_SHARDS must be auto or a whole number of shards (1 or more)']);
    expect(problems({ ...discord, COMFYOOM_SHARDS: '2.5' })).toHaveLength(1);
    expect(problems({ COMFYOOM_SHARDS: 'auto' })).toEqual(['COMFYOOM_SHARDS: COMFYOOM_SHARDS shards the Discord bot, which needs DISCORD_TOKEN']);
  });

  it("reads SLACK_API_URL, a GovSlack workspace's Web API, and refuses what is not a web URL", () => {
    const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' };
    expect(loadConfig(slack).slack).not.toHaveProperty('apiUrl');
    expect(loadConfig({ ...slack, SLACK_API_URL: 'https://slack-gov.com/api/' }).slack?.apiUrl).toBe('https://slack-gov.com/api/');
    expect(problems({ ...slack, SLACK_API_URL: 'slack-gov.com' })).toEqual(['SLACK_API_URL: SLACK_API_URL must be an http(s) URL such as https://slack-gov.com/api/']);
    expect(problems({ ...slack, SLACK_API_URL: 'ftp://slack-gov.com/api/' })).toHaveLength(1);
  });

  it('refuses absurd durations and rates, saying the range', () => {
    expect(problems({ COMFYOOM_IDLE_HOURS: '1e-7', COMFYOOM_RETENTION_DAYS: '1000000000', COMFYOOM_RATE_PER_MINUTE: '0.001' })).toEqual([
      'COMFYOOM_IDLE_HOURS: COMFYOOM_IDLE_HOURS must be between 0.001 and 720 hours (it is 1e-7)',
      'COMFYOOM_RETENTION_DAYS: COMFYOOM_RETENTION_DAYS must be between 1 and 36500 days (it is 1000000000)',
      'COMFYOOM_RATE_PER_MINUTE: COMFYOOM_RATE_PER_MINUTE must be between 1 and 10000 pastes a minute (it is 0.001)',
    ]);
    expect(loadConfig({ COMFYOOM_IDLE_HOURS: '0.5', COMFYOOM_RETENTION_DAYS: '3650' })).toMatchObject({ idleMs: 1_800_000, retentionDays: 3650 });
  });

  it('treats empty variables as unset, as a copied .env.example leaves them', () => {
    expect(loadConfig({ DISCORD_TOKEN: '', SLACK_BOT_TOKEN: '', COMFYOOM_IDLE_HOURS: '' }).discord).toBeUndefined();
  });

  it('names the variable and the problem', () => {
    expect(problems({ DISCORD_TOKEN: 'short', DISCORD_GUILD_ID: 'my-server', COMFYOOM_IDLE_HOURS: '-1', COMFYOOM_RETENTION_DAYS: '7.5' })).toEqual([
      'COMFYOOM_IDLE_HOURS: COMFYOOM_IDLE_HOURS must be a positive number',
      'COMFYOOM_RETENTION_DAYS: COMFYOOM_RETENTION_DAYS must be a positive whole number',
      'DISCORD_TOKEN: DISCORD_TOKEN looks too short to be a bot token',
      'DISCORD_GUILD_ID: DISCORD_GUILD_ID must be a numeric server id',
    ]);
    expect(problems({ SLACK_BOT_TOKEN: 'xoxb-1-2-3' })[0]).toMatch(/^SLACK_APP_TOKEN: Socket Mode \(the default\) needs SLACK_APP_TOKEN/);
    expect(loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 's'.repeat(32) }).slack?.mode).toBe('http');
    expect(problems({ SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_MODE: 'http' })).toEqual(['SLACK_SIGNING_SECRET: HTTP mode needs SLACK_SIGNING_SECRET to verify requests']);
    expect(problems({ SLACK_BOT_TOKEN: 'oops' })[0]).toMatch(/SLACK_BOT_TOKEN must start with xoxb-/);
  });

  it('reads both platforms side by side', () => {
    const c = loadConfig({
      DISCORD_TOKEN: 'x'.repeat(72),
      DISCORD_WATCH_CHANNELS: '111, 222',
      SLACK_BOT_TOKEN: 'xoxb-1-2-3',
      SLACK_APP_TOKEN: 'xapp-1-A-3',
      SLACK_HELPERS: 'U1,U2',
    });
    expect(c.discord).toEqual({ token: 'x'.repeat(72), watchChannels: ['111', '222'], messageContent: true, solvedTag: 'Solved' });
    expect(c.slack).toMatchObject({ mode: 'socket', appToken: 'xapp-1-A-3', helpers: ['U1', 'U2'], admins: [], port: 3000 });
  });
});
