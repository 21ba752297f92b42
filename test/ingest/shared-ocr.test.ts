// Shards share one OCR pool, their manager's: each prepares a screenshot in its own process and the
// manager reads the page (src/ingest/shared-ocr.ts). Two stand-in shard processes talk to this
// process over the IPC channel a ShardingManager keeps, as real shards talk to their manager.
import { fork, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { OcrPool } from '../../src/ingest/ocr.ts';
import { serveOcr } from '../../src/ingest/shared-ocr.ts';

const pool = new OcrPool({ size: 1 });
const shards: ChildProcess[] = [];
afterAll(async () => {
  for (const s of shards) s.kill();
  await pool.close();
});

function shard(): Promise<ChildProcess> {
  const child = fork(new URL('../helpers/ocr-shard.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
  shards.push(child);
  serveOcr(child, pool);
  return new Promise((resolve) => child.once('message', () => resolve(child)));
}

const read = (child: ChildProcess, text: string) =>
  new Promise<{ text: string; problems: unknown[] }>((resolve) => {
    const onMessage = (m: unknown) => {
      if (typeof (m as { text?: unknown }).text !== 'string') return;
      child.off('message', onMessage);
      resolve(m as { text: string; problems: unknown[] });
    };
    child.on('message', onMessage);
    child.send({ read: text });
  });

describe("the shards' one OCR pool", () => {
  it("reads two shards' screenshots with the manager's workers, each shard getting its own text back", async () => {
    const [a, b] = await Promise.all([shard(), shard()]);
    expect(pool.started).toBe(0);
    const [fromA, fromB] = await Promise.all([
      read(a, 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'),
      read(b, 'RuntimeError: MPS backend out of memory (MPS allocated: 17.00 GB)'),
    ]);
    expect(fromA.problems).toEqual([]);
    expect(fromA.text).toContain('CUDA out of memory');
    expect(fromB.text).toContain('MPS backend out of memory');
    // One language set's workers, in this process: the shards started none of their own.
    expect(pool.started).toBe(1);
  });
});
