// The command definitions, their registration script (against the fake), and /comfyoom-stats.
import { readFileSync } from 'node:fs';
import { ApplicationCommandOptionType, ApplicationCommandType, PermissionFlagsBits } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { appIdFromToken, main, registerCommands } from '../../scripts/register-commands.ts';
import { BOT_PERMISSIONS, COMMAND, commandDefinitions } from '../../src/adapters/discord/commands.ts';
import { corpus, sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeDiscord, type FakeDiscord } from './fake-discord.ts';
import { ALICE, BOT, bodyOf, callback, GUILD, HELP, original, setup, slash, statsCommand, textOf, threadFrom, webhook, type Harness } from './harness.ts';

describe('command definitions', () => {
  const [diagnose, stats, forget, relabel, menu] = commandDefinitions() as any[];

  it('defines /comfyoom with optional log, file and language', () => {
    // Servers and the DM with the bot.
    expect(diagnose).toMatchObject({ name: COMMAND.diagnose, contexts: [0, 1] });
    expect(diagnose.options.map((o: any) => [o.name, o.type, o.required ?? false])).toEqual([
      ['log', ApplicationCommandOptionType.String, false],
      ['file', ApplicationCommandOptionType.Attachment, false],
      ['language', ApplicationCommandOptionType.String, false],
    ]);
    expect(diagnose.options[0].max_length).toBe(6000);
    expect(diagnose.options[2].choices.map((c: any) => c.value)).toEqual(['en', 'zh', 'zh-Hant', 'ja', 'ko']);
    expect(diagnose.description_localizations['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
  });

  it('localizes every command and option name and description for zh-CN, zh-TW, ja and ko', () => {
    const SCRIPT: Record<string, RegExp> = { 'zh-CN': /\p{sc=Han}/u, 'zh-TW': /\p{sc=Han}/u, ja: /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u, ko: /\p{sc=Hangul}/u };
    for (const [locale, script] of Object.entries(SCRIPT)) {
      for (const c of commandDefinitions() as any[]) {
        expect(c.name_localizations?.[locale], `${locale} ${c.name}`).toBeTruthy();
        if (c.type === ApplicationCommandType.ChatInput || c.type === undefined) expect(c.description_localizations?.[locale], `${locale} ${c.name}`).toMatch(script);
        // Subcommands and their groups hold options of their own, checked as deep as they go.
        const check = (options: any[], path: string) => {
          for (const o of options) {
            expect(o.name_localizations?.[locale], `${locale} ${path} ${o.name}`).toMatch(script);
            expect(o.description_localizations?.[locale], `${locale} ${path} ${o.name}`).toMatch(script);
            // A language is offered under its own name (日本語, 한국어) in every locale; the rest are localized.
            for (const choice of o.choices ?? []) expect(choice.name_localizations?.[locale] ?? choice.name, `${locale} ${choice.value}`).toMatch(choice.name_localizations ? script : /[^\x00-\x7f]/);
            check(o.options ?? [], `${path} ${o.name}`);
          }
        };
        check(c.options ?? [], c.name);
      }
    }
  });

  it('limits /comfyoom-config to server admins (Manage Server), in servers, with a subcommand per setting', () => {
    const config = (commandDefinitions() as any[]).find((c) => c.name === COMMAND.config);
    expect(config).toMatchObject({ contexts: [0], default_member_permissions: String(PermissionFlagsBits.ManageGuild) });
    expect(config.options.map((o: any) => [o.name, o.type])).toEqual([
      ['show', ApplicationCommandOptionType.Subcommand],
      ['helpers', ApplicationCommandOptionType.Subcommand],
      ['watch', ApplicationCommandOptionType.SubcommandGroup],
      ['opt-out', ApplicationCommandOptionType.SubcommandGroup],
      ['digest', ApplicationCommandOptionType.Subcommand],
      ['language', ApplicationCommandOptionType.Subcommand],
      ['reset', ApplicationCommandOptionType.Subcommand],
    ]);
  });

  it('adds /comfyoom-forget for anyone, in servers and DMs', () => {
    expect(forget).toMatchObject({ name: COMMAND.forget, contexts: [0, 1] });
    expect(forget.default_member_permissions).toBeUndefined();
  });

  it('limits /comfyoom-relabel to members who can manage messages, in servers, with a case and an entry', () => {
    expect(relabel).toMatchObject({ name: COMMAND.relabel, contexts: [0], default_member_permissions: String(PermissionFlagsBits.ManageMessages) });
    expect(relabel.options.map((o: any) => [o.name, o.type, o.required])).toEqual([
      ['case', ApplicationCommandOptionType.String, true],
      ['entry', ApplicationCommandOptionType.String, true],
    ]);
  });

  it('limits /comfyoom-stats to members who can manage messages, and adds the message menu', () => {
    expect(stats).toMatchObject({ name: COMMAND.stats, default_member_permissions: String(PermissionFlagsBits.ManageMessages) });
    expect(stats.options).toEqual([
      expect.objectContaining({ name: 'since', type: ApplicationCommandOptionType.String }),
      expect.objectContaining({ name: 'all', type: ApplicationCommandOptionType.Boolean, name_localizations: expect.objectContaining({ 'zh-CN': '全部', 'zh-TW': '全部' }), description_localizations: expect.objectContaining({ 'zh-CN': expect.stringMatching(/所有条目/) }) }),
    ]);
    expect(menu).toMatchObject({ name: 'Diagnose with ComfyOOM', type: ApplicationCommandType.Message });
    expect(menu.name.length).toBeLessThanOrEqual(32);
  });
});

describe('docs/discord.md', () => {
  it('gives the invite URL with the permissions the bot needs', () => {
    expect(BOT_PERMISSIONS).toBe(326417632256n);
    const doc = readFileSync(new URL('../../docs/discord.md', import.meta.url), 'utf8');
    expect(doc).toContain(`https://discord.com/oauth2/authorize?client_id=APP_ID&scope=bot%20applications.commands&permissions=${BOT_PERMISSIONS}`);
    for (const v of ['DISCORD_TOKEN', 'DISCORD_GUILD_ID', 'DISCORD_WATCH_CHANNELS', 'COMFYOOM_DB', 'COMFYOOM_IDLE_HOURS', 'COMFYOOM_RATE_PER_MINUTE', 'COMFYOOM_KB']) expect(doc).toContain(`\`${v}\``);
  });
});

describe('scripts/register-commands.ts', () => {
  let fake: FakeDiscord;
  beforeAll(async () => {
    fake = await startFakeDiscord({ botId: BOT, guildId: GUILD, channels: [] });
  });
  afterAll(async () => {
    await fake.close();
  });
  const token = `${Buffer.from(BOT).toString('base64')}.GhJkLm.${'x'.repeat(38)}`;

  it('registers all six commands to one server, with the application id from Discord', async () => {
    const r = await registerCommands({ token, guildId: GUILD, api: fake.api });
    expect(r).toEqual({ applicationId: BOT, scope: 'guild', names: ['comfyoom', 'comfyoom-stats', 'comfyoom-forget', 'comfyoom-relabel', 'Diagnose with ComfyOOM', 'comfyoom-config'] });
    const put = await fake.waitFor((c) => c.method === 'PUT');
    expect(put.path).toBe(`/applications/${BOT}/guilds/${GUILD}/commands`);
    expect(put.auth).toBe(`Bot ${token}`);
    expect(put.body).toEqual(commandDefinitions());
  });

  it('registers globally without a server, reading the application id from the token if Discord will not say', async () => {
    fake.fail({ method: 'GET', path: /^\/applications\/@me$/, status: 403 });
    const from = fake.calls.length;
    const r = await registerCommands({ token, api: fake.api });
    expect(r).toMatchObject({ applicationId: BOT, scope: 'global' });
    expect((await fake.waitFor((c) => c.method === 'PUT', { from })).path).toBe(`/applications/${BOT}/commands`);
    expect(appIdFromToken('not-a-token')).toBeUndefined();
  });

  it('explains configuration problems instead of throwing', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main({})).toBe(1);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/DISCORD_TOKEN is not set/);
      expect(await main({ DISCORD_TOKEN: 'short' })).toBe(1);
      expect(String(err.mock.calls.at(-1)?.[0])).toMatch(/DISCORD_TOKEN looks too short/);
      expect(await main({ DISCORD_TOKEN: token, DISCORD_GUILD_ID: GUILD }, fake.api)).toBe(0);
      expect(String(out.mock.calls.at(-1)?.[0])).toMatch(/registered "comfyoom", "comfyoom-stats", "comfyoom-forget", "comfyoom-relabel", "Diagnose with ComfyOOM", "comfyoom-config" in server/);
    } finally {
      err.mockRestore();
      out.mockRestore();
    }
  });
});

describe('/comfyoom-stats', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('answers ephemerally with the case figures', async () => {
    h = await setup();
    slash(h, { log: onNvidia(sample('cf-0214').text) });
    await h.fake.waitFor(threadFrom(HELP));
    const p = statsCommand(h, '30d');
    expect((await h.fake.waitFor(callback(p))).body).toMatchObject({ type: 5, data: { flags: 64 } });
    const reply = await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
    const text = textOf(reply);
    expect(text).toMatch(new RegExp(`^\`\`\`\nCases: 1 on discord server ${GUILD} since \\d{4}-\\d\\d-\\d\\d`));
    expect(text).toMatch(/Out of GPU memory while sampling: /);
    expect(bodyOf(reply).allowed_mentions).toMatchObject({ parse: [] });
    // The chart comes with the figures, as private as they are.
    expect(reply.files).toEqual([expect.objectContaining({ name: 'comfyoom-stats.png' })]);
    expect(reply.files[0]!.size).toBeGreaterThan(10_000);
  });

  it('cuts long figures to one message, keeping the code block closed', async () => {
    h = await setup();
    for (const s of corpus.slice(0, 50)) await h.engine.open({ platform: 'discord', server: GUILD, user: ALICE.id, channel: HELP }, s.text);
    const p = statsCommand(h, undefined, {}, true);
    const reply = await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
    const text = textOf(reply);
    // Whole, as a file beside the message.
    expect(reply.files[1]!.text.length).toBeGreaterThan(2000);
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text.length).toBeGreaterThan(1500);
    expect(text.startsWith('```\nCases: ')).toBe(true);
    expect(text.endsWith('\n```')).toBe(true);
    expect((text.match(/```/g) ?? []).length).toBe(2);

    // One screen comes whole, in as many messages as it takes, each a closed block.
    const glance = statsCommand(h);
    const first = textOf(await h.fake.waitFor((c) => original(glance)(c) && c.method === 'PATCH'));
    const messages = [first];
    while (!/Everything: /.test(messages.at(-1)!)) messages.push(textOf(await h.fake.waitFor((c) => webhook(glance)(c) && c.method === 'POST' && !messages.includes(textOf(c)))));
    for (const m of messages) expect({ length: m.length <= 2000, fences: (m.match(/```/g) ?? []).length, closed: m.endsWith('\n```') }).toEqual({ length: true, fences: 2, closed: true });
    expect(messages.join('\n').split('\n').filter((l) => !l.startsWith('```')).length).toBeLessThanOrEqual(40);
  });

  it('explains a malformed "since"', async () => {
    h = await setup();
    const p = statsCommand(h, 'forever', { locale: 'zh-CN' });
    const reply = await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH');
    expect(textOf(reply)).toMatch(/30d/);
    expect(textOf(reply)).toMatch(/[\u4e00-\u9fff]/);
  });
});
