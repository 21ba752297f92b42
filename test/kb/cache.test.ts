// The kb as the bot and CLI open it: a copy of the last validated load, used only while nothing
// it was made from has changed.
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openKb } from '../../src/kb/cache.ts';
import { DEFAULT_KB_DIR } from '../../src/kb/dir.ts';
import { KbError, loadKb } from '../../src/kb/load.ts';

const dirs: string[] = [];
const copyKb = () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'kbc-')), 'kb');
  cpSync(DEFAULT_KB_DIR, dir, { recursive: true });
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(join(d, '..'), { recursive: true, force: true })));

describe('the kb cache', () => {
  it('gives the same kb as a full load, from the copy on the second open', async () => {
    const dir = copyKb();
    const full = loadKb(dir);
    const first = await openKb(dir);
    const second = await openKb(dir);
    for (const kb of [first, second]) {
      expect(kb.version).toBe(full.version);
      expect(kb.entries).toEqual(full.entries);
      expect([...kb.steps.keys()]).toEqual([...full.steps.keys()]);
      expect(kb.steps.get('reserve-vram')).toEqual(full.steps.get('reserve-vram'));
      expect([...kb.flags.entries()]).toEqual([...full.flags.entries()]);
      expect(kb.signatures).toEqual(full.signatures);
    }
  });

  it('keeps a bounded number of copies: the oldest folders\' go, the newest stays', async () => {
    const cache = fileURLToPath(new URL('../../node_modules/.cache/comfyoom', import.meta.url));
    const copyOf = (dir: string) => readdirSync(cache).filter((f) => f.startsWith(`kb-${createHash('sha1').update(resolve(dir)).digest('hex').slice(0, 8)}-`));
    const opened: string[] = [];
    for (let i = 0; i < 12; i++) {
      const dir = copyKb();
      await openKb(dir);
      opened.push(dir);
      // Copies are told apart by when they were written.
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(opened.slice(0, 4).flatMap(copyOf)).toEqual([]);
    expect(copyOf(opened[11]!)).toHaveLength(1);
    expect(readdirSync(cache).filter((f) => f.endsWith('.json')).length).toBeLessThanOrEqual(12);
  });

  it('reads the YAML again when a kb file changes, and reports a broken one', async () => {
    const dir = copyKb();
    await openKb(dir);
    const file = join(dir, 'entries', 'gpu-oom-sampling.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('id: gpu-oom-sampling', 'id: gpu-oom-sampling-renamed'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    await expect(openKb(dir)).rejects.toBeInstanceOf(KbError);
  });
});
