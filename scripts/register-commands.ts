// Registers ComfyOOM's Discord commands (/comfyoom, /comfyoom-stats, the "Diagnose with ComfyOOM"
// message menu): in one server when DISCORD_GUILD_ID is set (shows up at once), otherwise globally
// (Discord may take up to an hour to show them). Run: npm run register-commands
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DiscordAPIError, REST, Routes, type RESTGetCurrentApplicationResult } from 'discord.js';
import { commandDefinitions } from '../src/adapters/discord/commands.ts';
import { ConfigError, loadConfig } from '../src/app/config.ts';

/** A bot token's first part is the bot's user id (which is the application id) in base64. */
export function appIdFromToken(token: string): string | undefined {
  const id = Buffer.from(token.split('.')[0] ?? '', 'base64').toString('utf8');
  return /^\d{17,20}$/.test(id) ? id : undefined;
}

export interface Registered {
  applicationId: string;
  scope: 'guild' | 'global';
  names: string[];
}

export async function registerCommands(o: { token: string; guildId?: string; api?: string }): Promise<Registered> {
  const rest = new REST({ retries: 1, ...(o.api ? { api: o.api } : {}) }).setToken(o.token);
  const applicationId = await rest
    .get(Routes.currentApplication())
    .then((app) => (app as RESTGetCurrentApplicationResult).id)
    .catch((e: unknown) => {
      // Reading the application needs nothing special, but fall back on the token's own id anyway.
      const fromToken = appIdFromToken(o.token);
      if (!fromToken) throw e;
      return fromToken;
    });
  const body = commandDefinitions();
  const route = o.guildId ? Routes.applicationGuildCommands(applicationId, o.guildId) : Routes.applicationCommands(applicationId);
  await rest.put(route, { body });
  return { applicationId, scope: o.guildId ? 'guild' : 'global', names: body.map((c) => c.name) };
}

export async function main(env: NodeJS.ProcessEnv = process.env, api?: string): Promise<number> {
  const fail = (text: string) => {
    process.stderr.write(`register-commands: ${text}\n`);
    return 1;
  };
  let config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return fail(e.message);
    throw e;
  }
  if (!config.discord) return fail('DISCORD_TOKEN is not set. Put the bot token in .env (see .env.example and docs/discord.md).');
  const { token, guildId } = config.discord;
  try {
    const r = await registerCommands({ token, ...(guildId ? { guildId } : {}), ...(api ? { api } : {}) });
    const where = r.scope === 'guild' ? `in server ${guildId}` : 'globally (Discord may take up to an hour to show them)';
    process.stdout.write(`registered ${r.names.map((n) => `"${n}"`).join(', ')} ${where} for application ${r.applicationId}\n`);
    return 0;
  } catch (e) {
    if (e instanceof DiscordAPIError && e.status === 401) return fail('Discord refused the token (401). Check DISCORD_TOKEN.');
    if (e instanceof DiscordAPIError && e.status === 403) return fail(`Discord refused (403: ${e.message}). Is the bot in server ${guildId ?? '(global)'}, invited with the applications.commands scope?`);
    return fail(`registering failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (existsSync('.env')) process.loadEnvFile('.env');
  process.exitCode = await main();
}
