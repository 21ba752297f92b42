// A few thousand seeded hostile inputs through the whole engine (ingest, classifier, planner,
// machine, redaction) into a real SQLite file: no exception escapes, every answer is a message,
// every case that was opened is complete, and the file is sound. The full 20,000-input run with
// timings is `npm run bench -- fuzz`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/conversation/engine.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { kb } from '../helpers/kb.ts';
import { fuzzInputs } from '../helpers/fuzz.ts';

describe('fuzzing the engine', () => {
  it('survives 1,500 hostile inputs into a real database', { timeout: 240_000 }, async () => {
    const db = openDb(join(mkdtempSync(join(tmpdir(), 'fuzz-')), 'cases.db'));
    const store = new CaseStore(sqliteSql(db));
    const engine = new Engine({ kb, store, ratePerMinute: 1e9 });
    const crashes: string[] = [];
    let n = 0;
    for (const input of fuzzInputs(1500, 0xf022, { bigMb: 1 })) {
      const file = input.file;
      try {
        const out = await engine.receive(
          { platform: 'discord', server: 'g', channel: 'c', user: `u${n++ % 50}` },
          { ...(input.text !== undefined ? { text: input.text } : {}), ...(file ? { attachments: [{ name: file.name, size: file.bytes.length, read: async () => file.bytes }] } : {}) },
        );
        if (!Array.isArray(out) || !out.length || out.some((m) => !m.blocks.length)) crashes.push(`${input.kind}: no message`);
        // Noise is refused as such: a binary (UTF-16 shaped or not) never becomes a case.
        if (input.kind === 'a binary shaped like UTF-16' && out.some((m) => m.caseId)) crashes.push(`${input.kind}: opened a case`);
      } catch (e) {
        crashes.push(`${input.kind}: ${(e as Error).stack?.split('\n').slice(0, 3).join(' ')}`);
      }
    }
    expect(crashes).toEqual([]);
    const incomplete = db.prepare("SELECT COUNT(*) FROM cases c WHERE state = '{}' OR NOT EXISTS (SELECT 1 FROM events e WHERE e.case_id = c.id)").pluck().get();
    expect(incomplete).toBe(0);
    expect(db.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
    const withNul = db.prepare("SELECT COUNT(*) FROM cases WHERE instr(paste, char(0)) > 0").pluck().get();
    expect(withNul).toBe(0);
    db.close();
  });
});
