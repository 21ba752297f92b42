// `comfyoom start` with an operations port that is taken: said as a configuration problem, and the
// process ends (its worker pools closed) instead of hanging on with no port.
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

describe('comfyoom start', () => {
  it('names a taken COMFYOOM_HTTP_PORT and exits', async () => {
    const taken = http.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'comfyoom-start-'));
    try {
      // From an empty folder, so no .env there applies; Discord is never reached (the port fails first).
      const child = spawn(process.execPath, [bin, 'start'], {
        cwd: dir,
        env: { ...process.env, DISCORD_TOKEN: TOKEN, SLACK_BOT_TOKEN: '', COMFYOOM_DB: join(dir, 'cases.db'), COMFYOOM_HTTP_PORT: String(port), COMFYOOM_LOG_FORMAT: 'json' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => (child.kill('SIGKILL'), resolve(null)), 30_000);
        child.once('exit', (c) => (clearTimeout(timer), resolve(c)));
      });
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`COMFYOOM_HTTP_PORT: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`));
    } finally {
      taken.close();
    }
  }, 60_000);
});
