// The bots' engine does its heavy work in the pool's workers (issue 12, row 8: classification ran on
// the event loop that must acknowledge, which stalled for 793 ms on 8 MB logs). Behaviour, not
// timing: while an 8 MB log is read, the event loop keeps turning, and the workers did the work.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/conversation/engine.ts';
import { WorkPool } from '../../src/conversation/pool.ts';
import { factsForStorage, storedPaste } from '../../src/conversation/storable.ts';
import { DEFAULT_KB_DIR } from '../../src/kb/dir.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { sample } from '../helpers/corpus.ts';
import { classify, kb } from '../helpers/kb.ts';
import { onNvidia } from './pastes.ts';

const pool = new WorkPool({ kb, kbDir: DEFAULT_KB_DIR, threads: 1 });
afterAll(() => pool.close());

const alice = { platform: 'discord', server: 'G1', channel: 'C1', user: 'alice' };
const oom = onNvidia(sample('cf-0214').text);
/** What a long ComfyUI session's console looks like by the time it runs out of memory. */
const bigLog = () => {
  const noise = 'got prompt\nloaded partially 4096.0 MB 100%|####| 20/20 [00:10<00:00]\n';
  return `${noise.repeat(Math.ceil(7_900_000 / noise.length)).slice(0, 7_900_000)}\n${oom}`;
};

describe('the work pool', () => {
  it('reads an 8 MB log in a worker: the event loop turns all the while, and the case opens', async () => {
    const engine = new Engine({ kb, store: new CaseStore(sqliteSql(openDb(join(mkdtempSync(join(tmpdir(), 'pool-')), 'cases.db')))), work: pool });
    const before = pool.completed;
    let done = false;
    const opening = engine.receive(alice, { text: bigLog() }).finally(() => (done = true));
    // A turn of the event loop is what an acknowledgement or a timer needs; classified on this
    // thread, the log would take every millisecond of the read in one go.
    let turns = 0;
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      turns++;
    }
    const [diagnosis] = await opening;
    expect(diagnosis).toMatchObject({ opens: true });
    expect(turns).toBeGreaterThan(100);
    // Classified, its paste and its facts redacted for storage: three tasks, none on this thread.
    expect(pool.completed - before).toBe(3);
  });

  it('classifies and redacts in a worker exactly as on this thread', async () => {
    const text = `${oom}\nC:\\Users\\alice\\ComfyUI\\main.py --listen\nHF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEFGH`;
    const here = classify(text);
    const there = await pool.classify(text);
    expect({ ...there, entry: there.entry.id }).toEqual({ ...here, entry: here.entry.id });
    const paste = await pool.storedPaste(text);
    expect(paste).toBe(await storedPaste(text));
    expect(paste).not.toMatch(/alice|hf_abc/);
    expect(await pool.storedFacts(here.facts)).toEqual(await factsForStorage(here.facts));
  });
});
