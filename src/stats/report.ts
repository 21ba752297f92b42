// Stats as moderators get them: the store's figures (computed from the aggregates written with
// the events), the step order learned per entry with its evidence, and the names the kb gives
// entries and steps; then as text, CSV or a chart.
import type { Kb } from '../kb/load.ts';
import type { Lang } from '../i18n/messages.ts';
import { Learner, type AdaptiveSetting } from '../learn/index.ts';
import type { Sql } from '../store/sql.ts';
import type { Names } from './chart.ts';
import { computeStats, OUTCOMES, type Stats, type StatsOptions } from './figures.ts';

/** The stats of a scope and period, with the learned orders when the kb is known. */
export async function buildStats(store: Sql, opts: StatsOptions, kb?: Pick<Kb, 'steps' | 'entries'>, adaptive: AdaptiveSetting = 'auto'): Promise<Stats> {
  const stats = await computeStats(store, opts);
  return kb ? { ...stats, learned: await new Learner(store, kb, adaptive).learnedOrders() } : stats;
}

/** Entries and steps by their kb titles, in a language; ids for what the kb does not know. */
export function kbNames(kb: Pick<Kb, 'steps' | 'entries'>, lang: Lang): Names {
  return {
    entry: (id) => kb.entries.find((e) => e.id === id)?.title[lang] ?? id,
    step: (id) => kb.steps.get(id)?.title[lang] ?? id,
  };
}

const cell = (v: string | number) => (typeof v === 'number' || !/[",\n]/.test(v) ? String(v) : `"${v.replace(/"/g, '""')}"`);

/**
 * Every figure as one tidy table, one number per row, for spreadsheets and scripts: what it is
 * (section and measure) and what it is of (entry, step, week, fingerprint; empty when none).
 */
export function statsCsv(s: Stats): string {
  const rows: (string | number)[][] = [['section', 'entry', 'step', 'week', 'fingerprint', 'measure', 'value']];
  const add = (section: string, keys: { entry?: string; step?: string; week?: string; fingerprint?: string }, measures: Record<string, number>) => {
    for (const [measure, value] of Object.entries(measures)) rows.push([section, keys.entry ?? '', keys.step ?? '', keys.week ?? '', keys.fingerprint ?? '', measure, value]);
  };
  add('total', {}, { cases: s.cases });
  for (const e of s.entries) add('entry', { entry: e.entry }, { cases: e.cases, ...Object.fromEntries(OUTCOMES.map((o) => [o, e[o]])) });
  for (const e of s.misdiagnosed.byEntry) add('misdiagnosed', { entry: e.entry }, { cases: e.cases });
  for (const f of s.funnel) for (const st of f.steps) add('funnel', { entry: f.entry, step: st.step }, { offered: st.offered, tried: st.tried, fixed: st.fixed, assumed: st.assumed, movedOn: st.movedOn });
  for (const w of s.weeks) add('week', { week: w.week }, Object.fromEntries(OUTCOMES.map((o) => [o, w[o]])));
  for (const l of s.learned ?? []) {
    l.steps.forEach((st, i) => add('learned', { entry: l.entry, step: st.step }, { place: i + 1, kbPlace: st.kbPlace + 1, chance: Math.round(st.chance * 1000) / 1000, tried: st.tried, fixed: st.fixed }));
  }
  for (const u of s.unrecognized) for (const w of u.weeks) add('unrecognized', { entry: u.entry, week: w.week, fingerprint: u.fingerprint }, { cases: w.cases });
  return rows.map((r) => r.map(cell).join(',')).join('\n');
}
