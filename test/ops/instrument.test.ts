// The store's failures as the metrics and /healthz see them: a real SQLite store whose connection
// is gone counts an error per failed call under the call's name, and is not ready.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/conversation/engine.ts';
import { readiness, storeCheck } from '../../src/ops/health.ts';
import { instruments } from '../../src/ops/instrument.ts';
import { createMetrics } from '../../src/ops/metrics.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { kb } from '../helpers/kb.ts';
import { sample as corpusSample } from '../helpers/corpus.ts';
import { parseMetrics, sample } from './prom.ts';

describe('the watched store', () => {
  it('counts each failed call by name, rethrows it, and is not ready once the connection is gone', async () => {
    const m = createMetrics();
    const db = openDb(join(mkdtempSync(join(tmpdir(), 'ops-store-')), 'cases.db'));
    const store = instruments(m).store(new CaseStore(db));
    const engine = new Engine({ kb, store });
    const [opened] = await engine.open({ platform: 'discord', channel: 'c', user: 'a' }, corpusSample('cf-0214').text);
    expect(opened!.caseId).toBeDefined();
    const { entry } = store.get(opened!.caseId!)!.row;
    expect(await readiness([storeCheck(db)])).toEqual({ ready: true, checks: { store: 'ok' } });

    db.close();
    expect(() => store.get(opened!.caseId!)).toThrow(/not open/);
    expect(() => engine.lastOpenCase({ platform: 'discord', user: 'a' })).toThrow(/not open/);
    expect(() => store.get(opened!.caseId!)).toThrow(/not open/);
    const figures = parseMetrics(await m.registry.metrics());
    expect(sample(figures, 'comfyoom_store_errors_total', { operation: 'get' })).toBe(2);
    expect(sample(figures, 'comfyoom_store_errors_total', { operation: 'lastOpen' })).toBe(1);
    expect(sample(figures, 'comfyoom_cases_opened_total', { platform: 'discord', entry })).toBe(1);
    expect(await readiness([storeCheck(db)])).toEqual({ ready: false, checks: { store: expect.stringMatching(/not open/) } });
  });
});
