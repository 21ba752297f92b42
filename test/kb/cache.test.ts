// The kb as the bot and CLI open it: a copy of the last validated load, used only while nothing
// it was made from has changed.
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openKb } from '../../src/kb/cache.ts';
import { DEFAULT_KB_DIR, KbError, loadKb } from '../../src/kb/load.ts';

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

  it('reads the YAML again when a kb file changes, and reports a broken one', async () => {
    const dir = copyKb();
    await openKb(dir);
    const file = join(dir, 'entries', 'gpu-oom-sampling.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('id: gpu-oom-sampling', 'id: gpu-oom-sampling-renamed'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    await expect(openKb(dir)).rejects.toBeInstanceOf(KbError);
  });
});
