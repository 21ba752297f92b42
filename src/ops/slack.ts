// Slack's figures and log, from outside the adapter: every event the receiver hands the app (over
// Socket Mode or HTTP) is timed to its acknowledgement, the Web API client tells its rate limits,
// and Bolt writes to the bots' log.
import { LogLevel, type App, type Logger as BoltLogger, webApi } from '@slack/bolt';
import { format } from 'node:util';
import type { Logger } from './log.ts';
import type { Metrics } from './metrics.ts';

/**
 * Times each event from the moment the receiver hands it to the app to its acknowledgement: the
 * app's own entry point, wrapped, since Bolt gives listeners and middleware a copy of `ack`. In HTTP
 * mode the request's wait for its turn to be read comes before, and is not in the figure.
 */
export function measureSlack(app: App, m: Metrics): void {
  const process = app.processEvent.bind(app);
  app.processEvent = (event) => {
    const start = performance.now();
    return process({
      ...event,
      ack: async (response) => {
        await event.ack(response);
        m.ack.observe({ platform: 'slack' }, (performance.now() - start) / 1000);
      },
    });
  };
  // Told on a 429, before the client waits it out.
  app.client.on(webApi.WebClientEvent.RATE_LIMITED, () => m.rateLimited.inc({ platform: 'slack', kind: 'refused' }));
}

/**
 * Bolt's and Socket Mode's log lines into ours. Their debug lines carry whole payloads (paste text
 * among them), so they show only at `trace`.
 */
export function boltLogger(log: Logger): BoltLogger {
  const line = (...msg: unknown[]) => format(...msg);
  return {
    debug: (...msg) => log.trace(line(...msg)),
    info: (...msg) => log.info(line(...msg)),
    warn: (...msg) => log.warn(line(...msg)),
    error: (...msg) => log.error(line(...msg)),
    // The level is ours (COMFYOOM_LOG_LEVEL); Bolt only asks.
    setLevel: () => undefined,
    getLevel: () => (log.isLevelEnabled('trace') ? LogLevel.DEBUG : log.isLevelEnabled('info') ? LogLevel.INFO : log.isLevelEnabled('warn') ? LogLevel.WARN : LogLevel.ERROR),
    setName: () => undefined,
  };
}
