// Another process on the same SQLite file, holding its write lock (BEGIN IMMEDIATE) until released:
// what a second bot, a `comfyoom forget` or a moderator's sqlite3 shell does to a running bot.
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LockHolder {
  /** Commits and ends the process; resolves once it has exited. */
  release(): Promise<void>;
}

export async function holdWriteLock(file: string): Promise<LockHolder> {
  const script = `const db = require('better-sqlite3')(process.argv[1]);
    db.exec('BEGIN IMMEDIATE'); console.log('locked');
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    release: () => {
      child.stdin.end('release\n');
      return exited;
    },
  };
}

/** The longest this thread's event loop stood still while `during` ran, in milliseconds. */
export async function longestStall(during: () => Promise<void>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try {
    await during();
  } finally {
    h.disable();
  }
  return h.max / 1e6;
}
