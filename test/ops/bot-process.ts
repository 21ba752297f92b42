// The bot as `comfyoom start` runs it (configuration from the environment, runBots with its signal
// handling), in a process of its own, with Discord at the address the test gives: its fake.
import { runBots } from '../../src/app/bots.ts';
import { loadConfig } from '../../src/app/config.ts';

const discordApi = process.env['FAKE_DISCORD_API'];
if (!discordApi) throw new Error('FAKE_DISCORD_API: the fake Discord to connect to');
process.exitCode = await runBots(loadConfig(), { discordApi });
