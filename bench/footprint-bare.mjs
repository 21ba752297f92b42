// The footprint bench's baseline: the two chat libraries alone, a discord.js client and a Bolt app
// connected to the same fakes and doing nothing. What the bot holds beyond this is its own.
import { App, LogLevel } from '@slack/bolt';
import { Client, GatewayIntentBits } from 'discord.js';

/** @type {Client | undefined} */
let client;
/** @type {App | undefined} */
let app;

process.on('message', (m) => void handle(m));

/** @param {{ start: { discordApi: string; slackApi: string; discordToken: string; slackToken: string; signingSecret: string } } | { stop: true }} m */
async function handle(m) {
  if ('start' in m) {
    const s = m.start;
    client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent], rest: { api: s.discordApi } });
    await new Promise((resolve, reject) => {
      client.once('clientReady', resolve);
      client.login(s.discordToken).catch(reject);
    });
    app = new App({ token: s.slackToken, signingSecret: s.signingSecret, port: 0, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: s.slackApi } });
    await app.start({ port: 0, host: '127.0.0.1' });
    process.send({ ready: true });
  } else {
    await client?.destroy();
    await app?.stop();
    process.send({ stopped: true }, undefined, {}, () => process.exit(0));
  }
}
