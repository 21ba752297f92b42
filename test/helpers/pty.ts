// A command on a pseudo-terminal (util-linux `script`): its stdin is a TTY that never ends by
// itself, as a user's terminal is; what is typed goes in a line at a time, with pauses.
import { spawn } from 'node:child_process';

export interface PtyRun {
  code: number | null;
  out: string;
}

/** Runs `argv` on a pseudo-terminal, types each of `typed` (a line, or raw keys such as Ctrl+D), and waits for it to exit. */
export function runOnPty(argv: string[], typed: string[], env: NodeJS.ProcessEnv = process.env, limitMs = 30_000): Promise<PtyRun> {
  return new Promise((done, fail) => {
    const child = spawn('script', ['-qfec', argv.map((a) => JSON.stringify(a)).join(' '), '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`still running after typing ${JSON.stringify(typed.at(-1))}; output:\n${out.slice(-400)}`));
    }, limitMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, out });
    });
    const keys = [...typed];
    const next = () => {
      const k = keys.shift();
      if (k === undefined) return;
      child.stdin.write(k);
      setTimeout(next, 400);
    };
    setTimeout(next, 1500);
  });
}

/** A line as typed on a terminal. */
export const line = (text: string) => `${text}\r`;
/** Ctrl+D: the end of input on a terminal. */
export const CTRL_D = '\x04';
