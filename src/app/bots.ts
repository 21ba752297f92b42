// Runs the chat adapters whose tokens are configured, side by side, on one engine and one database.
import type { Message } from '../conversation/render.ts';
import type { CaseRow, CaseStore } from '../store/cases.ts';
import type { Engine } from '../conversation/engine.ts';
import { storeProblem } from '../store/errors.ts';
import type { Config } from './config.ts';
import { openApp } from './context.ts';

export interface RunningAdapter {
  /** The platform name stored with its cases: discord | slack. */
  platform: string;
  /** Posts messages about a case where it lives (its thread, else its channel). */
  deliver(row: CaseRow, messages: Message[]): Promise<void>;
  /** Posts the weekly digest to the moderators' channel, if one is configured and this week's is not out yet. */
  digest?(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Abandons idle cases (even when nobody writes) and posts each notice where its case lives.
 * A failed post is left for the log: the abandonment is already recorded.
 */
export async function sweepIdle(engine: Engine, store: CaseStore, adapters: RunningAdapter[]): Promise<number> {
  let delivered = 0;
  for (const { caseId, messages } of await engine.sweep()) {
    const row = (await store.get(caseId))?.row;
    const adapter = row && adapters.find((r) => r.platform === row.platform);
    if (!row || !adapter) continue;
    try {
      await adapter.deliver(row, messages);
      delivered++;
    } catch (e) {
      process.stderr.write(`comfyoom: could not post the idle notice of case ${caseId}: ${(e as Error).message}\n`);
    }
  }
  return delivered;
}

/**
 * The bots' periodic housekeeping: idle cases abandoned (and told), then the cases past retention
 * deleted. A failure (the database locked for too long, a full disk) is logged and left to the
 * next round; the bots keep answering.
 */
export async function housekeep(engine: Engine, store: CaseStore, adapters: RunningAdapter[], config: Pick<Config, 'db' | 'retentionDays'>): Promise<void> {
  try {
    await sweepIdle(engine, store, adapters);
    await engine.expire(config.retentionDays);
    await store.prune(Date.now(), 86_400_000);
    for (const a of adapters) await a.digest?.();
  } catch (e) {
    process.stderr.write(`comfyoom: housekeeping failed, will retry: ${(storeProblem(e, config.db) ?? (e as Error)).message}\n`);
  }
}

/**
 * Starts every configured platform. One that fails to start (a wrong token, an intent Discord
 * refuses, no network) is reported and left out; the others run. Exit code 1 only when none did.
 */
export async function runBots(config: Config): Promise<number> {
  const app = await openApp(config, { pool: true });
  await app.engine.expire(config.retentionDays);
  const starts: [string, () => Promise<RunningAdapter>][] = [];
  if (config.discord) {
    const discord = config.discord;
    starts.push(['Discord', async () => (await import('../adapters/discord/bot.ts')).startDiscord({ config: discord, engine: app.engine })]);
  }
  if (config.slack) {
    const slack = config.slack;
    starts.push(['Slack', async () => (await import('../adapters/slack/bot.ts')).startSlack({ config: slack, engine: app.engine })]);
  }
  const running = await startAll(starts);
  if (!running.length) {
    await app.close();
    return 1;
  }
  const sweeper = setInterval(() => void housekeep(app.engine, app.store, running, config), 10 * 60_000);
  process.stdout.write(`comfyoom: connected (${running.map((r) => r.platform).join(', ')})\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(sweeper);
  for (const r of running) await r.stop();
  await app.close();
  return 0;
}

/** Starts the platforms side by side; each failure is told by name and leaves the others running. */
export async function startAll(starts: [string, () => Promise<RunningAdapter>][], log: (line: string) => void = (line) => void process.stderr.write(line)): Promise<RunningAdapter[]> {
  const started = await Promise.all(
    starts.map(async ([name, start]) => {
      try {
        return await start();
      } catch (e) {
        log(`comfyoom: could not connect to ${name}, going on without it: ${(e as Error).message}\n`);
        return undefined;
      }
    }),
  );
  return started.filter((r): r is RunningAdapter => r !== undefined);
}
