// vitest's global setup: one real PostgreSQL server for the whole run (see postgres.ts). Tests get
// its URL (inject('postgresUrl')), or why it could not start (inject('postgresUnavailable')), and
// then skip their PostgreSQL half saying so.
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresUnavailable: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  try {
    // Every test opens stores of its own; a few hundred connections keep them from waiting.
    const server = await startPostgres(['-c', 'max_connections=400', '-c', 'fsync=off']);
    project.provide('postgresUrl', server.url);
    return server.stop;
  } catch (e) {
    project.provide('postgresUnavailable', `the PostgreSQL server could not start here: ${(e as Error).message}`);
    return async () => {};
  }
}
