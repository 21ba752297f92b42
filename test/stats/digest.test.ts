// The weekly digest: once per server and week (claimed in the database before posting), the
// server's own figures only, in English or Chinese.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/conversation/engine.ts';
import { step } from '../../src/conversation/machine.ts';
import { loadKb } from '../../src/kb/load.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';

const kb = loadKb();
const NOW = Date.UTC(2026, 2, 12, 9);

describe('weeklyDigest', () => {
  it('is built once per server and week, from that server’s cases only', async () => {
    const store = new CaseStore(sqliteSql(openDb(join(mkdtempSync(join(tmpdir(), 'digest-')), 'cases.db'))));
    const plan = { entry: 'gpu-oom-vae', category: 'oom_gpu_vae', steps: ['tiled-vae-decode', 'reduce-workload'] };
    for (const [id, server, fixed] of [['a', 'G1', true], ['b', 'G1', false], ['c', 'G2', true]] as const) {
      let t = step(undefined, { kind: 'open', at: NOW - 86_400_000, caseId: id, owner: 'u', lang: 'en', plan });
      await store.create({ id, platform: 'discord', server, userId: 'u', createdAt: NOW - 86_400_000, category: plan.category, entry: plan.entry, kbVersion: 'v', facts: {}, paste: 'p', fingerprint: 'f', recognized: true }, t.records, t.state!);
      // Case b's user said the diagnosis was not their problem.
      const who = { at: NOW, actor: 'u', moderator: false };
      t = step(t.state, fixed ? { kind: 'action', offer: 1, action: 'worked', ...who } : { kind: 'doubt', diagnosis: 0, ...who });
      await store.append(id, t.records, t.state!);
    }
    const engine = new Engine({ kb, store, now: () => NOW });
    const digest = await engine.weeklyDigest('discord', 'G1');
    expect(digest?.text).toMatch(/^ComfyOOM, the week from 2026-03-05: 2 cases, 50% fixed/);
    expect(digest?.text).toMatch(/Decode in tiles: VAE Decode \(Tiled\), 1 of 1 who tried it/);
    expect(digest?.text).toMatch(/Said "that's not my problem": 1, most for Out of GPU memory in VAE decode or encode \(1\)\. Correct one .*\(cases: b\)/);
    expect(digest?.chart.subarray(1, 4).toString()).toBe('PNG');
    expect(await engine.weeklyDigest('discord', 'G1')).toBeUndefined();
    const zh = await engine.weeklyDigest('discord', 'G2', 'zh');
    expect(zh?.text).toMatch(/^ComfyOOM 本周（自 2026-03-05 起）：1 个问题，100% 已解决/);
    expect(zh?.text).not.toMatch(/不是我的问题/);
  });
});
