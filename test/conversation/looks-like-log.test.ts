// One answer, in the engine, to "is this a log?": what adapters accept and what a case takes as
// its new log. A thank-you must never be recorded as "no longer an OOM".
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/conversation/engine.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { kb } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';

const engine = new Engine({ kb, store: new CaseStore(sqliteSql(openDb(join(mkdtempSync(join(tmpdir(), 'log-')), 'cases.db')))) });

describe('looksLikeLog', () => {
  it('knows tracebacks, OOM lines and near-miss errors, in English and Chinese', async () => {
    for (const id of ['cf-0214', 'cf-0009', 'cf-0069', 'cf-0211']) expect(await engine.looksLikeLog(sample(id).text), id).toBe(true);
    expect(await engine.looksLikeLog('torch.OutOfMemoryError: CUDA out of memory.')).toBe(true);
    expect(await engine.looksLikeLog('Killed')).toBe(true);
    expect(await engine.looksLikeLog('!!! Exception during processing !!! 显存不足')).toBe(true);
  });

  it('takes a sentence about an out-of-memory error for words, not output', async () => {
    for (const said of ['跑图的时候显存不足', 'still OOM', 'OOM again :(', 'does --lowvram help with OOM?']) expect(await engine.looksLikeLog(said), said).toBe(false);
  });

  it('leaves chat alone', async () => {
    for (const chat of ['thanks, trying now', 'still getting the error', 'it worked!', 'ok 好的', 'Killed it, thanks', '']) expect(await engine.looksLikeLog(chat), chat).toBe(false);
  });
});
