// Readiness: each part the bot needs (every configured platform, the store) says whether it can
// take work now. A part answers with nothing when ready, or with what is wrong.
import { sql } from 'kysely';
import type { Sql } from '../store/sql.ts';
export interface Check {
  name: string;
  problem(): string | undefined | Promise<string | undefined>;
}

export interface Readiness {
  ready: boolean;
  /** "ok", or what is wrong, per part. */
  checks: Record<string, string>;
}

/** A check that has not answered within this is not ready (a store locked by a long rewrite, say). */
const CHECK_TIMEOUT_MS = 2000;

async function answer(c: Check): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([Promise.resolve().then(() => c.problem()), late])) ?? 'ok';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    clearTimeout(timer);
  }
}

export async function readiness(checks: readonly Check[]): Promise<Readiness> {
  const answers = await Promise.all(checks.map(async (c) => [c.name, await answer(c)] as const));
  return { ready: answers.every(([, a]) => a === 'ok'), checks: Object.fromEntries(answers) };
}

/** The store answers a trivial query. */
export const storeCheck = (store: Sql): Check => ({
  name: 'store',
  problem: async () => {
    await sql`SELECT 1`.execute(store.db);
    return undefined;
  },
});
