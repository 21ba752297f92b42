// Starts the Slack app: Bolt over Socket Mode (no public URL needed) or over HTTP with request
// signing, its Web API client, and the listeners that hand everything to the engine.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPModuleFunctions, HTTPReceiver, SocketModeReceiver, webApi, type Logger, type LogLevel } from '@slack/bolt';
import type { RunningAdapter } from '../running.ts';
import type { Engine } from '../../conversation/engine.ts';
import { admitAll, type Admit } from '../../ops/gate.ts';
import { SlackHandlers } from './handlers.ts';
import type { SlackFile } from './inbound.ts';

/** The Slack app's settings (app/config.ts reads them from the environment). */
export interface SlackConfig {
  botToken: string;
  mode: 'socket' | 'http';
  appToken?: string;
  signingSecret?: string;
  /** Slack's Web API base URL when it is not https://slack.com/api/ (GovSlack). */
  apiUrl?: string;
  port: number;
  watchChannels?: string[];
  helpers: string[];
  admins: string[];
  helperGroup?: string;
  digestChannel?: string;
}

export interface StartSlackOptions {
  config: SlackConfig;
  engine: Engine;
  /** The Web API's base URL; tests point it at a local fake. */
  slackApiUrl?: string;
  /**
   * The Web API client's retry policy. Left unset, Bolt's default applies: about ten retries over
   * half an hour, each 429 waited out for its Retry-After, which is what production wants.
   */
  retryConfig?: webApi.RetryOptions;
  /** HTTP mode: the interface to listen on (default: all). */
  host?: string;
  logger?: Logger;
  logLevel?: LogLevel;
  /** Runs each event's handling; a graceful stop closes it (see ops/gate.ts). */
  admit?: Admit;
}

export interface SlackAdapter extends RunningAdapter {
  platform: 'slack';
  app: App;
  /** HTTP mode: the port actually listened on (config.port 0 picks a free one). */
  port?: number;
}

/**
 * The bot token, proven before anything starts: Socket Mode connects with the app token alone and
 * HTTP mode with no token at all, so a wrong bot token would otherwise show only at the first event.
 * Bolt is handed the answer; left to ask itself, it asks in its constructor and leaves a refusal
 * as an unhandled rejection, which ends the process.
 */
async function whoAmI(token: string, clientOptions: webApi.WebClientOptions): Promise<{ botId: string; botUserId: string }> {
  try {
    const me = await new webApi.WebClient(token, clientOptions).auth.test();
    return { botId: me.bot_id!, botUserId: me.user_id! };
  } catch (e) {
    const refused = (e as { data?: { error?: string } }).data?.error;
    if (refused) throw new Error(`SLACK_BOT_TOKEN was refused (${refused}): copy the Bot User OAuth Token (xoxb-...) from the app's OAuth & Permissions page`);
    throw e;
  }
}

export async function startSlack(o: StartSlackOptions): Promise<SlackAdapter> {
  const { config } = o;
  const clientOptions: webApi.WebClientOptions = {
    ...(o.slackApiUrl ? { slackApiUrl: o.slackApiUrl } : {}),
    ...(o.retryConfig ? { retryConfig: o.retryConfig } : {}),
  };
  const logging = { ...(o.logger ? { logger: o.logger } : {}), ...(o.logLevel ? { logLevel: o.logLevel } : {}) };
  let receiverOptions;
  /** Socket Mode: whether the connection is up now. */
  let connected = false;
  if (config.mode === 'socket') {
    if (!config.appToken) throw new Error('Slack Socket Mode needs SLACK_APP_TOKEN (an xapp- token with connections:write)');
    // Built here, as Bolt would, to watch its connection; its Web API calls go where the app's do.
    const receiver = new SocketModeReceiver({ appToken: config.appToken, installerOptions: { clientOptions }, ...logging });
    receiver.client.on('connected', () => (connected = true));
    for (const state of ['reconnecting', 'disconnecting', 'disconnected']) receiver.client.on(state, () => (connected = false));
    receiverOptions = { receiver };
  } else {
    if (!config.signingSecret) throw new Error('Slack HTTP mode needs SLACK_SIGNING_SECRET to verify requests');
    const receiver = new HTTPReceiver({ signingSecret: config.signingSecret, ...logging });
    // Each request is read in its turn (see Engine.turn): a burst of hundreds is read and
    // acknowledged a few dozen a turn, the event loop free between.
    const read = receiver.requestListener;
    receiver.requestListener = (request, response) =>
      void o.engine
        .turn('ack')
        .then(() => read(request, response))
        .catch((error: Error) => HTTPModuleFunctions.defaultDispatchErrorHandler({ error, logger: app.logger, request, response }));
    receiverOptions = { receiver };
  }
  const app = new App({
    token: config.botToken,
    ...(await whoAmI(config.botToken, { ...clientOptions, ...(o.logger ? { logger: o.logger } : {}) })),
    ...receiverOptions,
    clientOptions,
    ...(o.logger ? { logger: o.logger } : {}),
    ...(o.logLevel ? { logLevel: o.logLevel } : {}),
  });

  // The environment's choices hold in a workspace until its admins make their own.
  o.engine.settings.setDefaults('slack', { watch: config.watchChannels ?? [], ...(config.helperGroup ? { helpers: config.helperGroup } : {}), ...(config.digestChannel ? { digest: config.digestChannel } : {}) });
  const apiHost = o.slackApiUrl ? new URL(o.slackApiUrl).hostname : undefined;
  const handlers = new SlackHandlers({
    engine: o.engine,
    client: app.client,
    logger: app.logger,
    helpers: config.helpers,
    admins: config.admins,
    files: {
      botToken: config.botToken,
      trustedHost: (host) => host === 'slack.com' || host.endsWith('.slack.com') || (apiHost !== undefined && (host === apiHost || host.endsWith(`.${apiHost}`))),
      info: async (id) => (await app.client.files.info({ file: id })).file as SlackFile | undefined,
    },
  });
  const admit = o.admit ?? admitAll;
  app.use(({ next }) => admit(next).then(() => undefined));
  // Socket Mode's envelopes all come down one connection: each is handled, up to its acknowledgement, in its turn.
  if (config.mode === 'socket') app.use(async ({ next }) => o.engine.turn('ack').then(next));
  handlers.register(app);
  // Listener errors are already logged where they happen; this keeps Bolt from rethrowing the rest.
  app.error(async (e) => app.logger.error(`slack: ${e.message}`));

  let port: number | undefined;
  let server: Server | undefined;
  if (config.mode === 'http') {
    server = (await app.start({ port: config.port, ...(o.host ? { host: o.host } : {}) })) as Server;
    port = (server.address() as AddressInfo).port;
  } else {
    await app.start();
  }

  return {
    platform: 'slack',
    app,
    ...(port !== undefined ? { port } : {}),
    deliver: (row, messages) => handlers.deliver(row, messages),
    digest: () => handlers.postDigest(),
    problem: () => (server ? (server.listening ? undefined : 'HTTP receiver not listening') : connected ? undefined : 'Socket Mode not connected'),
    stop: async () => {
      await app.stop();
    },
  };
}
