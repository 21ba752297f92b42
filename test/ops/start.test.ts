// `comfyoom start` with an operations port that is taken: said as a configuration problem, and the
// process ends (its worker pools closed) instead of hanging on with no port. `start --bots`, as the
// container runs it, with no chat token: one sentence and exit 2, not the terminal mode's exit 0.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'comfyoom.mjs');
/** Token-shaped: the configuration accepts it, and no one is asked about it. */
const TOKEN = `test-token.${'x'.repeat(64)}`;

/** Runs `comfyoom start ARGS` from an empty folder (no .env there applies) until it exits. */
async function start(args: string[], env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'comfyoom-start-'));
  const child = spawn(process.execPath, [bin, 'start', ...args], {
    cwd: dir,
    env: { ...process.env, DISCORD_TOKEN: '', SLACK_BOT_TOKEN: '', COMFYOOM_DB: join(dir, 'cases.db'), COMFYOOM_LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), resolve(null)), 30_000);
    child.once('exit', (c) => (clearTimeout(timer), resolve(c)));
  });
  return { code, stdout, stderr };
}

describe('comfyoom start', () => {
  it('--bots with no chat token says so in one sentence and exits 2; without --bots the terminal mode ends with 0', async () => {
    const bots = await start(['--bots'], {});
    expect(bots.code).toBe(2);
    expect(bots.stderr).toBe('comfyoom: no chat platform to connect to: set DISCORD_TOKEN and/or SLACK_BOT_TOKEN (see .env.example).\n');
    expect(bots.stdout).toBe('');
    // What the container did before: the terminal mode, its input closed, and a clean exit.
    expect((await start([], {})).code).toBe(0);
  }, 60_000);

  it('names a taken COMFYOOM_HTTP_PORT and exits', async () => {
    const taken = http.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    try {
      // Discord is never reached: the port fails first.
      const { code, stderr } = await start([], { DISCORD_TOKEN: TOKEN, COMFYOOM_HTTP_PORT: String(port) });
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`COMFYOOM_HTTP_PORT: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`));
    } finally {
      taken.close();
    }
  }, 60_000);
});
