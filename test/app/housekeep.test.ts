// The bots' periodic housekeeping: idle cases abandoned, then cases past retention deleted, with
// stats still counting them; a failure is logged, never thrown into the timer.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { housekeep } from '../../src/app/bots.ts';
import { Engine } from '../../src/conversation/engine.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { computeStats } from '../../src/stats/figures.ts';
import { kb } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';
import { capturedLog } from '../helpers/log.ts';

const DAY = 86_400_000;

describe('housekeeping', () => {
  it('abandons idle cases, then deletes those past retention, and stats still count them', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tidy-')), 'cases.db');
    const store = new CaseStore(sqliteSql(openDb(path)));
    let clock = Date.now() - 100 * DAY;
    const engine = new Engine({ kb, store, now: () => clock });
    const old = (await engine.open({ platform: 'discord', channel: 'c', user: 'a' }, sample('cf-0214').text))[0]!.caseId!;
    clock = Date.now() - 10 * DAY;
    const recent = (await engine.open({ platform: 'discord', channel: 'c', user: 'b' }, sample('cf-0009').text))[0]!.caseId!;
    clock = Date.now();

    const discord = { platform: 'discord', deliver: async () => undefined, stop: async () => undefined };
    await housekeep(engine, store, [discord], { db: path, retentionDays: 90 }, capturedLog().log);
    expect(await store.get(old)).toBeUndefined();
    expect((await store.get(recent))!.row.status).toBe('abandoned');
    expect(await computeStats(store.sql)).toMatchObject({ cases: 2, shares: { abandoned: 1 } });
  });

  it('logs a failure and leaves it to the next round', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tidy-')), 'cases.db');
    const store = new CaseStore(sqliteSql(openDb(path)));
    const engine = new Engine({ kb, store });
    await store.sql.close();
    const logged = capturedLog();
    await expect(housekeep(engine, store, [], { db: path, retentionDays: 90 }, logged.log)).resolves.toBeUndefined();
    expect(logged.lines()).toEqual([expect.objectContaining({ level: 50, msg: 'housekeeping failed, will retry', err: expect.objectContaining({ message: expect.any(String) }) })]);
  });
});
