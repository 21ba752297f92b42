// What the set-up docs promise matches what the bot asks for: every bot scope and event of the Slack
// manifest is in docs/slack.md (its scope table, and the event list of its HTTP-mode manifest), and
// the README's Discord permission list names every permission of the invite integer it gives.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BOT_PERMISSIONS } from '../../src/adapters/discord/commands.ts';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('docs/slack.md', () => {
  const manifest = parse(read('slack-app-manifest.yaml')) as { oauth_config: { scopes: { bot: string[] } }; settings: { event_subscriptions: { bot_events: string[] } } };
  const doc = read('docs/slack.md');

  it('explains every bot scope the manifest asks for', () => {
    const explained = [...doc.matchAll(/^\| (`[^|]+`) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([^`]+)`/g)].map((x) => x[1]!));
    expect(manifest.oauth_config.scopes.bot.filter((s) => !explained.includes(s))).toEqual([]);
  });

  it("subscribes HTTP mode to the manifest's events, direct messages included", () => {
    const http = /bot_events: \[([^\]]*)\]/.exec(doc)![1]!.split(',').map((e) => e.trim());
    expect(http.sort()).toEqual([...manifest.settings.event_subscriptions.bot_events].sort());
    expect(http).toContain('message.im');
  });
});

describe("the README's Discord invite", () => {
  it('names every permission of its permissions integer', () => {
    const readme = read('README.md');
    const integer = BigInt(/permissions=(\d+)/.exec(readme)![1]!);
    expect(integer).toBe(BOT_PERMISSIONS);
    const list = readme.slice(readme.indexOf(`permissions=${integer}`)).split('set `DISCORD_TOKEN`')[0]!.replace(/\s+/g, ' ').toLowerCase();
    const granted = Object.entries(PermissionFlagsBits).filter(([, bit]) => (integer & bit) === bit);
    expect(granted.length).toBe(8);
    // ViewChannel is "View Channel" in Discord's own words.
    expect(granted.map(([name]) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()).filter((name) => !list.includes(name))).toEqual([]);
  });
});
