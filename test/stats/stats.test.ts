// Stats from the counters written with the events: per-entry funnels that agree with the per-step
// figures written independently, cases per week, unknown errors by fingerprint and week, the
// learned order, CSV, the chart, and the CLI around them; on real SQLite files and a real
// PostgreSQL server.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { step } from '../../src/conversation/machine.ts';
import { loadKb } from '../../src/kb/load.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openStore, type StoreLocation } from '../../src/store/open.ts';
import type { Sql } from '../../src/store/sql.ts';
import { computeStats } from '../../src/stats/figures.ts';
import { buildStats, kbNames, statsCsv } from '../../src/stats/report.ts';
import { statsChart } from '../../src/stats/chart.ts';
import { statsText } from '../../src/stats/text.ts';
import { playCase, rng, storeCase } from '../store/simulate.ts';
import { describeStores } from '../helpers/stores.ts';

const kb = loadKb();
const tmp = mkdtempSync(join(tmpdir(), 'stats-'));
const DAY = 86_400_000;
/** 2026-03-02, a Monday. */
const MONDAY = Date.UTC(2026, 2, 2);

async function filled(where: StoreLocation) {
  const db = await openStore(where);
  const store = new CaseStore(db);
  const r = rng(42);
  for (let i = 0; i < 300; i++) {
    const at = MONDAY + Math.floor(r() * 21 * DAY);
    await storeCase(store, { id: `c${i}`, platform: 'discord', server: i % 3 ? 'G1' : 'G2', userId: `u${i % 40}`, createdAt: at, facts: {}, paste: 'p' }, playCase(r, `c${i}`, `u${i % 40}`, at));
  }
  // An error the kb did not know, on G2 only.
  const plan = { entry: 'unrecognized-error', category: 'not_oom', steps: ['share-full-log'] };
  const t = step(undefined, { kind: 'open', at: MONDAY + DAY, caseId: 'x1', owner: 'u', lang: 'en', plan });
  await store.create(
    { id: 'x1', platform: 'discord', server: 'G2', userId: 'u', createdAt: MONDAY + DAY, category: 'not_oom', entry: plan.entry, kbVersion: 'v', facts: { exception: { type: 'KeyError', message: "'model.diffusion_model.input_blocks.0.0.weight' at C:\\Users\\<user>\\x 42" } }, paste: 'KeyError: redacted paste', fingerprint: 'abc123def456', recognized: false },
    t.records,
    t.state!,
  );
  return { db, store };
}

describeStores('stats from the counters written with the events', ({ fresh }) => {
  let db: Sql;
  beforeAll(async () => {
    db = (await filled(await fresh())).db;
  });

  it('gives per-entry funnels that add up to the per-step figures kept separately', async () => {
    const s = await computeStats(db);
    for (const st of s.steps) {
      const funnel = s.funnel.flatMap((f) => f.steps.filter((x) => x.step === st.step));
      expect(funnel.reduce((n, x) => n + x.fixed, 0)).toBe(st.resolvedConfirmed);
      expect(funnel.reduce((n, x) => n + x.assumed, 0)).toBe(st.resolvedAssumed);
      // Per step and case the old figures count a case once; the funnel counts each time (a step
      // offered again after a new log in another plan counts again).
      expect(funnel.reduce((n, x) => n + x.movedOn, 0)).toBeGreaterThanOrEqual(st.movedOn);
      expect(funnel.reduce((n, x) => n + x.tried, 0)).toBeGreaterThanOrEqual(st.tried);
      expect(funnel.reduce((n, x) => n + x.offered, 0)).toBeGreaterThanOrEqual(st.reached);
    }
    expect(s.funnel.map((f) => f.entry)).toContain('gpu-oom-vae');
    for (const f of s.funnel) for (const st of f.steps) expect(st.offered).toBeGreaterThanOrEqual(st.fixed);
  });

  it('counts cases per week by outcome, weeks starting on Monday, adding up to the total', async () => {
    const s = await computeStats(db);
    expect(s.weeks.map((w) => w.week)).toEqual(['2026-03-02', '2026-03-09', '2026-03-16']);
    const total = s.weeks.reduce((n, w) => n + w.resolvedConfirmed + w.resolvedAssumed + w.escalated + w.abandoned + w.cancelled + w.open, 0);
    expect(total).toBe(s.cases);
    expect(s.weeks.reduce((n, w) => n + w.resolvedConfirmed, 0)).toBe(s.entries.reduce((n, e) => n + e.resolvedConfirmed, 0));
  });

  it('scopes funnels and unknown errors to one server: no other server’s error text or counts', async () => {
    const g1 = await computeStats(db, { scope: { platform: 'discord', server: 'G1' } });
    const g2 = await computeStats(db, { scope: { platform: 'discord', server: 'G2' } });
    const all = await computeStats(db);
    const offered = (s: typeof all) => s.funnel.flatMap((f) => f.steps).reduce((n, x) => n + x.offered, 0);
    expect(offered(g1) + offered(g2)).toBe(offered(all));
    expect(g1.unrecognized).toEqual([]);
    expect(g2.unrecognized).toEqual([{ fingerprint: 'abc123def456', cases: 1, entry: 'unrecognized-error', example: expect.stringContaining('input_blocks'), weeks: [{ week: '2026-03-02', cases: 1 }] }]);
  });

  it('keeps counting the funnels of forgotten cases: the counters name nobody', async () => {
    const { db: own, store } = await filled(await fresh());
    const before = await computeStats(own);
    for (let u = 0; u < 40; u++) await store.forgetUser(`u${u}`);
    const after = await computeStats(own);
    expect(after.funnel).toEqual(before.funnel);
    expect(after.weeks).toEqual(before.weeks);
  });

  it('lists the learned order per entry with its evidence, in text and CSV', async () => {
    const s = await buildStats(db, {}, kb, 'auto');
    const text = statsText(s, { lang: 'en', names: kbNames(kb, 'en'), all: true, seeAll: 'comfyoom stats --all' });
    expect(text).toMatch(/Learned step order per entry/);
    expect(text).toContain('Out of GPU memory in VAE decode or encode (gpu-oom-vae) [oom_gpu_vae]');
    expect(text).toMatch(/Cases per week/);
    expect(text).toMatch(/per week: 2026-03-02 1/);
    const csv = statsCsv(s).split('\n');
    expect(csv[0]).toBe('section,entry,step,week,fingerprint,measure,value');
    expect(csv).toContain(`total,,,,,cases,${s.cases}`);
    expect(csv.some((l) => l.startsWith('funnel,gpu-oom-vae,'))).toBe(true);
    expect(csv.some((l) => l.startsWith('week,,,2026-03-09,,resolvedConfirmed,'))).toBe(true);
    expect(csv.some((l) => l.startsWith('unrecognized,unrecognized-error,,2026-03-02,abc123def456,cases,1'))).toBe(true);
  });

  it('draws the chart as a PNG, labels in Chinese, Japanese and Korean drawn with the bundled fonts (no boxes)', async () => {
    const s = await buildStats(db, {}, kb);
    const png = statsChart(s, 'zh', kbNames(kb, 'zh'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const img = await loadImage(png);
    expect(img.width).toBe(1600);
    expect(img.height).toBeGreaterThan(900);
    // A Chinese character and the box of a missing glyph do not draw alike.
    const ink = (text: string) => {
      const c = createCanvas(60, 60);
      const ctx = c.getContext('2d');
      ctx.font = '40px "Noto Sans SC"';
      ctx.fillText(text, 5, 45);
      return ctx.getImageData(0, 0, 60, 60).data.filter((_, i) => i % 4 === 3 && _ > 0).length;
    };
    for (const lang of ['zh-Hant', 'ja', 'ko'] as const) expect(statsChart(s, lang, kbNames(kb, lang)).subarray(1, 4).toString()).toBe('PNG');
    for (const glyph of ['解', '這', 'あ', 'ア', '한']) expect(ink(glyph), glyph).not.toBe(ink('\u{10FFFD}'));
    expect(statsChart({ ...s, weeks: [], funnel: [] }, 'en').subarray(1, 4).toString()).toBe('PNG');
  });
});

it('reads every case-wide stats query in index order on SQLite: no sort of every case, which made a million cases take seconds', async () => {
  const { db } = await filled({ db: join(tmp, 'plans.db') });
  const queries: { sql: string; params: readonly unknown[] }[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      const q = db.db.getExecutor().compileQuery(node as RootOperationNode, queryId);
      queries.push({ sql: q.sql, params: q.parameters });
      return node as RootOperationNode;
    },
    transformResult: async ({ result }) => result,
  };
  const watched = { ...db, db: db.db.withPlugin(plugin) };
  await computeStats(watched);
  await computeStats(watched, { sinceMs: 30 * DAY, now: MONDAY + 21 * DAY });
  const grouped = queries.filter((q) => / FROM (cases|case_steps|step_days)\b/.test(q.sql) && /GROUP BY/.test(q.sql));
  expect(grouped.length).toBeGreaterThanOrEqual(10);
  for (const q of grouped) {
    const { rows } = await db.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.params]));
    // A sort right after reading a per-case table sorts every case; the archive's counters and the
    // groups a query has already made are a few rows, and may be sorted.
    const plan = rows.map((r) => r.detail);
    const sorted = plan.filter((d, i) => /TEMP B-TREE FOR GROUP BY/.test(d) && /^(SCAN|SEARCH) (cases|case_steps|step_days)\b/.test(plan[i - 1] ?? ''));
    expect({ sql: q.sql.replace(/\s+/g, ' ').slice(0, 120), sorted }).toEqual({ sql: expect.any(String), sorted: [] });
  }
});

const bin = fileURLToPath(new URL('../../bin/comfyoom.mjs', import.meta.url));

describeStores('comfyoom stats, kb draft and order', ({ fresh }) => {
  /** The store as the CLI is told of it: --db for a file, COMFYOOM_DATABASE_URL for a server. */
  let where: StoreLocation;
  const run = (args: string[], store = true) =>
    spawnSync(process.execPath, [bin, ...args, ...(where.databaseUrl || !store ? [] : ['--db', where.db])], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, COMFYOOM_DATABASE_URL: where.databaseUrl ?? '' },
    });
  beforeAll(async () => {
    where = await fresh();
    await (await filled(where)).db.close();
  });

  it('writes the chart, prints CSV, and shows the learned order', () => {
    const png = join(tmp, 'stats.png');
    const r = run(['stats', '--chart', png, '--lang', 'zh']);
    expect(r.stderr).toBe('');
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    expect(r.stdout).toMatch(/^各条目的问题数/m);
    expect(run(['stats', '--csv']).stdout.split('\n')[0]).toBe('section,entry,step,week,fingerprint,measure,value');
    expect(run(['stats', '--lang', 'fr']).stderr).toMatch(/--lang must be one of en, zh, zh-Hant, ja, ko/);
  });

  it('drafts a signature and entry from an unknown error that pass kb lint, with its redacted pastes as fixtures, in a folder the loader ignores', () => {
    const out = join(tmp, 'drafts');
    const r = run(['kb', 'draft', 'abc123def456', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/draft written to .*abc123def456 \(signature draft_abc123def456, entry draft-abc123def456, 1 fixture of 1 case\); kb lint passes/);
    const dir = join(out, 'abc123def456');
    expect(readdirSync(dir).sort()).toEqual(['entries', 'fixtures.jsonl', 'signature.yaml']);
    expect(readFileSync(join(dir, 'entries', 'draft-abc123def456.yaml'), 'utf8')).toMatch(/^# DRAFT[\s\S]*title:\n {2}en: "?DRAFT: KeyError/);
    expect(JSON.parse(readFileSync(join(dir, 'fixtures.jsonl'), 'utf8'))).toMatchObject({ id: 'draft-abc123def456-1', category: 'not_oom', text: 'KeyError: redacted paste' });
    expect(run(['kb', 'lint', '--with', dir], false).stdout).toMatch(/kb ok with the draft/);
    // Only the asking server's cases: G1 never saw this error.
    expect(run(['kb', 'draft', 'abc123def456', '--out', out, '--server', 'G1']).stderr).toMatch(/no unrecognized case has the fingerprint abc123def456 on server G1/);
    // A draft inside the kb folder is not loaded.
    const kbCopy = join(mkdtempSync(join(tmp, 'kb-')), 'kb-with-drafts');
    spawnSync('cp', ['-r', fileURLToPath(new URL('../../kb', import.meta.url)), kbCopy]);
    run(['kb', 'draft', 'abc123def456', '--out', join(kbCopy, 'drafts')]);
    expect(existsSync(join(kbCopy, 'drafts', 'abc123def456', 'signature.yaml'))).toBe(true);
    expect(loadKb(kbCopy).entries.map((e) => e.id)).toEqual(kb.entries.map((e) => e.id));
  });

  it('pins and unpins a step for moderators, refusing a step the entry does not have', () => {
    expect(run(['order', 'pin', 'gpu-oom-vae', 'reduce-workload', '--at', '1']).stdout).toMatch(/reduce-workload is pinned in gpu-oom-vae at place 1/);
    expect(run(['order', 'pin', 'gpu-oom-vae', 'lowvram']).stderr).toMatch(/has no step "lowvram"/);
    expect(run(['order', 'unpin', 'gpu-oom-vae', 'reduce-workload']).stdout).toMatch(/no longer pinned/);
  });
});
