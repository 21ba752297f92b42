// Runs the chat adapters whose tokens are configured, side by side, on one engine and one database.
import type { Message } from '../conversation/render.ts';
import type { CaseRow } from '../store/cases.ts';
import type { Config } from './config.ts';
import { openApp } from './context.ts';

export interface RunningAdapter {
  /** The platform name stored with its cases: discord | slack. */
  platform: string;
  /** Posts messages about a case where it lives (its thread, else its channel). */
  deliver(row: CaseRow, messages: Message[]): Promise<void>;
  stop(): Promise<void>;
}

export async function runBots(config: Config): Promise<number> {
  const app = openApp(config);
  const running: RunningAdapter[] = [];
  if (config.discord) {
    const { startDiscord } = await import('../adapters/discord/bot.ts');
    running.push(await startDiscord({ config: config.discord, engine: app.engine, store: app.store }));
  }
  if (config.slack) {
    const { startSlack } = await import('../adapters/slack/bot.ts');
    running.push(await startSlack({ config: config.slack, engine: app.engine, store: app.store }));
  }
  // Idle cases are abandoned even when nobody writes; each notice goes to the case's own place.
  const sweep = async () => {
    for (const { caseId, messages } of app.engine.sweep()) {
      const row = app.store.get(caseId)?.row;
      const adapter = row && running.find((r) => r.platform === row.platform);
      if (row && adapter) await adapter.deliver(row, messages).catch(() => undefined);
    }
  };
  const sweeper = setInterval(() => void sweep(), 10 * 60_000);
  process.stdout.write(`comfyoom: connected (${running.map((r) => r.platform).join(', ')})\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(sweeper);
  for (const r of running) await r.stop();
  app.close();
  return 0;
}
