// The bot as `comfyoom start` runs it (configuration from the environment, runBots with its signal
// handling), in a process of its own, with Discord and Slack at the addresses the test gives: its fakes.
import { runBots } from '../../src/app/bots.ts';
import { loadConfig } from '../../src/app/config.ts';

const discordApi = process.env['FAKE_DISCORD_API'];
const slackApiUrl = process.env['FAKE_SLACK_API'];
if (!discordApi && !slackApiUrl) throw new Error('FAKE_DISCORD_API or FAKE_SLACK_API: the fake platform to connect to');
await runBots(loadConfig(), { ...(discordApi ? { discordApi } : {}), ...(slackApiUrl ? { slackApiUrl } : {}) });
