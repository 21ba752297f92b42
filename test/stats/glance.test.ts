// Stats a moderator reads at a glance: 263 cases over the whole kb (a long tail of entries, steps
// and unrecognized errors) give one screen of text by kb titles with each step's fix rate, a last
// line saying what was left out and how to see it, everything with `all`, Chinese for Chinese
// moderators; the chart says which entries it shows and when, and cuts no title.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadKb } from '../../src/kb/load.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openStore } from '../../src/store/open.ts';
import type { Stats } from '../../src/stats/figures.ts';
import { chartLayout, wrap } from '../../src/stats/chart.ts';
import { buildStats, kbNames } from '../../src/stats/report.ts';
import { statsText } from '../../src/stats/text.ts';
import { kbPlans, playCase, rng, storeCase } from '../store/simulate.ts';

const kb = loadKb();
const DAY = 86_400_000;
const MONDAY = Date.UTC(2026, 2, 2);
const NOW = MONDAY + 42 * DAY;
const en = kbNames(kb, 'en');
const zh = kbNames(kb, 'zh');
const text = (s: Stats, o: { lang?: 'en' | 'zh'; all?: boolean } = {}) =>
  statsText(s, { lang: o.lang ?? 'en', names: o.lang === 'zh' ? zh : en, all: o.all ?? false, seeAll: 'comfyoom stats --all' });

let stats: Stats;
beforeAll(async () => {
  const db = await openStore({ db: join(mkdtempSync(join(tmpdir(), 'glance-')), 'cases.db') });
  const store = new CaseStore(db);
  const r = rng(7);
  const plans = kbPlans(kb);
  for (let i = 0; i < 263; i++) {
    const at = MONDAY + Math.floor(r() * 42 * DAY);
    // Every ninth case an error the kb did not know, of seven kinds.
    const unknown = i % 9 === 0 ? { fingerprint: `f${i % 7}`.padEnd(12, '0'), recognized: false } : {};
    const facts = { exception: { type: 'RuntimeError', message: `unknown error ${i % 7}` } };
    await storeCase(store, { id: `c${i}`, platform: 'discord', server: 'G1', userId: `u${i % 50}`, createdAt: at, facts, paste: 'p', ...unknown }, playCase(r, `c${i}`, `u${i % 50}`, at, plans));
  }
  stats = await buildStats(db, { scope: { platform: 'discord', server: 'G1' }, now: NOW, sinceMs: 60 * DAY }, kb);
  await db.close();
});

describe('the stats text', () => {
  it('fits one screen: the top entries by their titles, each step with its fix rate, and what was left out', () => {
    expect(stats.cases).toBe(263);
    expect(stats.entries.length).toBeGreaterThan(25);
    const lines = text(stats).split('\n');
    expect(lines.length).toBeLessThanOrEqual(40);
    const top = stats.funnel.find((f) => f.entry === stats.entries[0]!.entry)!;
    const tried = top.steps.find((st) => st.tried > 0)!;
    expect(lines).toContainEqual(expect.stringContaining(`  ${stats.entries[0]!.cases}  ${en.entry(top.entry)}: `));
    expect(lines).toContainEqual(
      expect.stringContaining(`${en.step(tried.step)} — fixed ${tried.fixed} of ${tried.tried} tried (${Math.round((tried.fixed / tried.tried) * 100)}%), offered ${tried.offered}`),
    );
    // Titles only: no kb id of an entry or a step shown.
    for (const e of stats.entries) expect(text(stats)).not.toMatch(new RegExp(`\\b${e.entry}\\b`));
    for (const st of stats.steps) expect(text(stats)).not.toMatch(new RegExp(`(^|[ (])${st.step}\\b`, 'm'));
    expect(lines.filter((l) => /^ {2}\s*\d+ {2}\S/.test(l) && !/^ {2}\s*\d+ {2}f\d/.test(l))).toHaveLength(5);
    expect(lines.at(-1)).toMatch(new RegExp(`^Not shown: ${new Set([...stats.entries, ...stats.funnel].map((e) => e.entry)).size - 5} more entries, \\d+ more steps of entries shown, 4 more unrecognized errors, .*Everything: comfyoom stats --all$`));
  });

  it('shows everything with `all`: every entry and step, titles followed by their ids', () => {
    const all = text(stats, { all: true });
    expect(all.split('\n').length).toBeGreaterThan(300);
    for (const e of stats.entries) expect(all).toContain(`${en.entry(e.entry)} (${e.entry})`);
    for (const f of stats.funnel) for (const st of f.steps) expect(all).toContain(`${en.step(st.step)} (${st.step})`);
    expect(all).toMatch(/Learned step order per entry/);
    expect(all).toMatch(/Cases per week/);
    expect(all).not.toMatch(/Not shown/);
  });

  it('speaks Chinese to Chinese moderators, titles and all', () => {
    const lines = text(stats, { lang: 'zh' }).split('\n');
    expect(lines.length).toBeLessThanOrEqual(40);
    expect(lines[0]).toBe('问题数：263，discord 服务器 G1，自 2026-02-12 起');
    expect(lines).toContainEqual(expect.stringContaining(`  ${zh.entry(stats.entries[0]!.entry)}：`));
    expect(lines.join('\n')).toMatch(/ — 试过 \d+ 次，解决 \d+ 次（\d+%），共提供 \d+ 次/);
    expect(lines.at(-1)).toMatch(/^未显示：另外 \d+ 个条目、.*查看全部：comfyoom stats --all$/);
    expect(lines.join('\n')).not.toMatch(/[A-Za-z]{4,} (per|of|more|entries)\b/);
  });
});

describe('the stats chart', () => {
  it('says which entries it shows, of how many, for which server and period', () => {
    const layout = chartLayout(stats, 'en', en);
    expect(layout.title).toBe('ComfyOOM stats · discord server G1 · 2026-02-12 → 2026-04-13');
    expect(layout.subtitle).toBe(`263 cases · each step offered / tried / fixed, for the top 6 of ${stats.funnel.length} entries (most cases first)`);
    expect(layout.funnels).toHaveLength(6);
    expect(chartLayout(stats, 'zh', zh).title).toBe('ComfyOOM 统计 · discord 服务器 G1 · 2026-02-12 → 2026-04-13');
    expect(chartLayout({ ...stats, since: null }, 'en', en).title).toBe('ComfyOOM stats · discord server G1 · all cases to 2026-04-13');
  });

  it('cuts no title: each label is its whole title, wrapped between words', () => {
    // Lines join back into the title: with spaces in English, and but for spaces in Chinese.
    const squeeze = (t: string) => t.replace(/\s/g, '');
    for (const lang of ['en', 'zh'] as const) {
      const names = kbNames(kb, lang);
      chartLayout(stats, lang, names).funnels.forEach((config, i) => {
        const steps = stats.funnel[i]!.steps.slice(0, 8);
        const labels = config.data.labels as string[][];
        expect(labels.map((l) => (lang === 'en' ? l.join(' ') : squeeze(l.join(''))))).toEqual(steps.map((st) => (lang === 'en' ? names.step(st.step) : squeeze(names.step(st.step)))));
        for (const line of labels.flat()) expect(line).not.toMatch(/…/);
      });
    }
    // The longest titles in the kb, each word whole.
    for (const step of kb.steps.values()) {
      const lines = wrap(step.title.en, 30);
      expect(lines.join(' ')).toBe(step.title.en);
      for (const line of lines) expect(step.title.en.split(' ')).toEqual(expect.arrayContaining(line.split(' ')));
    }
    expect(wrap('Apple Silicon: lift PyTorch\'s own memory cap (PYTORCH_MPS_HIGH_WATERMARK_RATIO)', 30)).toEqual(['Apple Silicon: lift PyTorch\'s', 'own memory cap', '(PYTORCH_MPS_HIGH_WATERMARK_RATIO)']);
    expect(wrap('更新 ComfyUI、自定义节点和驱动，或回退到之前能用的版本', 30)).toEqual(['更新 ComfyUI、自定义节点和驱', '动，或回退到之前能用的版本']);
  });
});
