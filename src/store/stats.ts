// Which fixes really work: moderator statistics over the case store. Confirmed resolutions (the
// user said it worked) and assumed ones (a later log was no longer an OOM) are always reported apart.
import { QUESTIONS, type Choice, type Question } from '../conversation/questions.ts';
import type { LearnedOrder } from '../learn/index.ts';
import { DAY_MS, dayOf, FIX_MEASURES } from './archive.ts';
import { sql } from 'kysely';
import { all, value, type Sql } from './sql.ts';

export interface EntryStats {
  entry: string;
  category: string;
  cases: number;
  resolvedConfirmed: number;
  resolvedAssumed: number;
  escalated: number;
  abandoned: number;
  cancelled: number;
  open: number;
}

export interface StepStats {
  step: string;
  /** Cases where the step was offered. */
  reached: number;
  /** Cases where the user reported trying it (worked or still failing). */
  tried: number;
  resolvedConfirmed: number;
  resolvedAssumed: number;
  /** Cases where a new log showed a different memory failure after this step: progress, not a fix. */
  movedOn: number;
}

/** How often the log could not tell and the bot asked before the first step, and what people answered. */
export interface QuestionStats {
  question: Question;
  /** Cases it was put to. */
  asked: number;
  /** Answers per choice; `unknown` is "I don't know". */
  answers: Partial<Record<Choice, number>>;
  /** Answers written (a node's name, "AMD") rather than pressed. */
  typed: number;
  /** Still open, or made moot by a new log, a stop or idleness. */
  unanswered: number;
}

/** One step of one entry: how many cases were offered it, tried it, and were fixed by it. */
export interface FunnelStep {
  step: string;
  offered: number;
  tried: number;
  /** Confirmed by the user. */
  fixed: number;
  /** Inferred from a later log that was no longer an OOM. */
  assumed: number;
  movedOn: number;
}

export type Outcome = 'resolvedConfirmed' | 'resolvedAssumed' | 'escalated' | 'abandoned' | 'cancelled' | 'open';
export const OUTCOMES: Outcome[] = ['resolvedConfirmed', 'resolvedAssumed', 'escalated', 'abandoned', 'cancelled', 'open'];

/** Cases created in one week (Monday, UTC, as YYYY-MM-DD), by how they ended. */
export type WeekStats = { week: string } & Record<Outcome, number>;

export interface Stats {
  since: number | null;
  /** When they were computed: the end of their period. */
  until: number;
  /** What was counted: every case, or one platform's, or one server's (a Discord server, a Slack workspace). */
  scope: Scope;
  cases: number;
  shares: { resolvedConfirmed: number; resolvedAssumed: number; escalated: number; abandoned: number; cancelled: number; open: number };
  entries: EntryStats[];
  steps: StepStats[];
  /** Cases whose user said the diagnosis was not their problem, by the entry they doubted (most first). */
  misdiagnosed: {
    cases: number;
    share: number;
    byEntry: { entry: string; cases: number }[];
    /** The newest such cases still kept, for a moderator to relabel: what was doubted, and what the case went on as. */
    recent: { caseId: string; doubted: string; now: string }[];
  };
  /** Over confirmed resolutions only. */
  medianStepsToResolution: number | null;
  medianMinutesToResolution: number | null;
  /** Errors the kb did not recognize, most frequent first, grouped by fingerprint, with their cases per week and an example from the scope's own cases. */
  unrecognized: { fingerprint: string; cases: number; entry: string; example: string | null; weeks: { week: string; cases: number }[] }[];
  questions: { casesAsked: number; byQuestion: QuestionStats[] };
  /** Per entry, each step's funnel: offered, tried, fixed (entries by cases, steps by offers). */
  funnel: { entry: string; steps: FunnelStep[] }[];
  weeks: WeekStats[];
  /** The step order learned per entry, with its evidence, when the caller knows the kb (see src/stats/report.ts). */
  learned?: LearnedOrder[];
}

/** Weeks start on Monday: day 0 (1970-01-01) was a Thursday, so week w starts on day 7w - 3. */
const WEEK_OF_DAY = (day: string) => sql.raw(`((${day}) + 3) / 7`);
/** A case's week, written as migration 009's indexes write it, so SQLite reads them in its order. */
const CASE_WEEK = WEEK_OF_DAY(`created_at / ${DAY_MS}`);
const weekStart = (week: number) => new Date((week * 7 - 3) * DAY_MS).toISOString().slice(0, 10);

/** Parses "30d", "12h", "90m" into milliseconds. */
export function parseSince(s: string): number {
  const m = /^(\d{1,6})\s{0,1}([wdhm])$/i.exec(s.trim());
  if (!m) throw new Error(`--since takes a number and w, d, h or m (e.g. 2w, 30d), not "${s}"`);
  return Number(m[1]) * { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2]!.toLowerCase() as 'w' | 'd' | 'h' | 'm'];
}

/** Which cases stats count; unset fields count all. A server id is its platform's (guild or team id). */
export interface Scope {
  platform?: string;
  server?: string;
}

/**
 * The conditions a scope adds, on the cases table, on tables keyed by case_id, and on the
 * archive's counters. Unscoped stats read the cases through the index of migration 009 that holds
 * their query's rows in its GROUP BY order (SQLite is told; PostgreSQL's planner chooses alone);
 * scoped ones leave the choice to the database (migration 007's index leads with platform, server).
 */
function scoped(store: Sql, scope: Scope) {
  const keys = (['platform', 'server'] as const).filter((k) => scope[k] !== undefined);
  const cond = sql.join(
    keys.map((k) => sql` AND ${sql.ref(k)} = ${scope[k]!}`),
    sql``,
  );
  const none = !keys.length;
  return {
    cases: none ? sql`` : cond,
    from: (index: string) => (none ? sql`cases${store.dialect.indexedBy(index)}` : sql`cases`),
    byCase: none ? sql`` : sql` AND case_id IN (SELECT id FROM cases WHERE 1 = 1${cond})`,
    archive: none ? sql`` : cond,
  };
}

const share = (n: number, total: number) => (total ? Math.round((n / total) * 1000) / 1000 : 0);

/** The median of a distribution given as (value, count) rows. */
function median(rows: { value: number; n: number }[]): number | null {
  const total = rows.reduce((t, r) => t + r.n, 0);
  if (!total) return null;
  const sorted = [...rows].sort((a, b) => a.value - b.value);
  const at = (rank: number) => {
    let seen = 0;
    return sorted.find((r) => (seen += r.n) > rank)!.value;
  };
  return (at(Math.floor((total - 1) / 2)) + at(Math.floor(total / 2))) / 2;
}

/** The archive's distribution of a confirmed-resolution measure. */
function archivedFixes(store: Sql, measure: keyof typeof FIX_MEASURES, day: number, scope: Scope): Promise<{ value: number; n: number }[]> {
  return all(store.db, sql<{ value: number; n: number }>`SELECT value, cases AS n FROM archived_fixes WHERE measure = ${measure} AND day >= ${day}${scoped(store, scope).archive}`);
}

export async function computeStats(store: Sql, opts: { sinceMs?: number; now?: number; scope?: Scope } = {}): Promise<Stats> {
  const db = store.db;
  const until = opts.now ?? Date.now();
  const from = opts.sinceMs !== undefined ? until - opts.sinceMs : 0;
  const day = dayOf(from);
  const scope = opts.scope ?? {};
  const q = scoped(store, scope);
  // Every query reads aggregates kept at write time (migration 004) through covering indexes, plus
  // the archive's counters of deleted cases (migration 006), whole days of them.
  // One pass over the cases, in the order of migration 009's index, by entry, outcome, resolving
  // step, week and steps offered: the per-entry figures, the weeks, the steps that resolved cases
  // and the steps-to-a-fix median all come from it.
  const grouped = await all(
    db,
    sql<{ entry: string; category: string; status: string; resolution: string | null; step: string | null; week: number; steps: number | null; n: number }>`
      SELECT entry, category, status, resolution, resolving_step AS step, ${CASE_WEEK} AS week, steps_offered AS steps, COUNT(*) AS n FROM ${q.from('cases_grouped')}
        WHERE created_at >= ${from}${q.cases} GROUP BY entry, category, status, resolution, resolving_step, ${CASE_WEEK}, steps_offered
      UNION ALL SELECT entry, category, status, resolution, resolving_step, ${WEEK_OF_DAY('day')}, NULL, cases FROM archived_cases WHERE day >= ${day}${q.archive}`,
  );
  const outcomeOf = (r: { status: string; resolution: string | null }): Outcome =>
    r.status === 'resolved' ? (r.resolution === 'confirmed' ? 'resolvedConfirmed' : 'resolvedAssumed') : (r.status as Outcome);
  const entryRows = new Map<string, EntryStats>();
  const weekRows = new Map<number, WeekStats>();
  for (const r of grouped) {
    const key = `${r.entry}\u0000${r.category}`;
    const e = entryRows.get(key) ?? ({ entry: r.entry, category: r.category, cases: 0, ...Object.fromEntries(OUTCOMES.map((o) => [o, 0])) } as EntryStats);
    const w = weekRows.get(r.week) ?? ({ week: weekStart(r.week), ...Object.fromEntries(OUTCOMES.map((o) => [o, 0])) } as WeekStats);
    const outcome = outcomeOf(r);
    e.cases += r.n;
    e[outcome] += r.n;
    w[outcome] += r.n;
    entryRows.set(key, e);
    weekRows.set(r.week, w);
  }
  const entries = [...entryRows.values()].sort((a, b) => b.cases - a.cases || a.entry.localeCompare(b.entry));

  const total = entries.reduce((n, e) => n + e.cases, 0);
  const sum = (k: keyof EntryStats) => entries.reduce((n, e) => n + (e[k] as number), 0);

  const archivedSteps = sql`UNION ALL SELECT step, SUM(reached), SUM(tried), SUM(moved_on) FROM archived_steps WHERE day >= ${day}${q.archive} GROUP BY step`;
  const perStep = await all(
    db,
    sql<{ step: string; reached: number; tried: number; movedOn: number }>`SELECT step, COUNT(*) AS reached, SUM(tried) AS tried, SUM(moved_on) AS "movedOn" FROM case_steps${store.dialect.indexedBy('case_steps_grouped')}
       WHERE created_at >= ${from}${q.byCase} GROUP BY step ${archivedSteps}`,
  );

  const steps = new Map<string, StepStats>();
  const row = (step: string) => steps.get(step) ?? steps.set(step, { step, reached: 0, tried: 0, resolvedConfirmed: 0, resolvedAssumed: 0, movedOn: 0 }).get(step)!;
  for (const r of perStep) {
    const s = row(r.step);
    s.reached += r.reached;
    s.tried += r.tried;
    s.movedOn += r.movedOn;
  }
  const stepsToFix = await archivedFixes(store, 'steps', day, scope);
  for (const r of grouped) {
    if (r.status !== 'resolved') continue;
    const confirmed = outcomeOf(r) === 'resolvedConfirmed';
    if (r.step !== null) row(r.step)[confirmed ? 'resolvedConfirmed' : 'resolvedAssumed'] += r.n;
    if (confirmed && r.steps !== null) stepsToFix.push({ value: r.steps, n: r.n });
  }
  const medianSteps = median(stepsToFix);
  const tenths = await all(
    db,
    sql<{ value: number; n: number }>`SELECT ${sql.raw(FIX_MEASURES.tenths)} AS value, COUNT(*) AS n FROM ${q.from('cases_fix_tenths')}
       WHERE status = 'resolved' AND resolution = 'confirmed' AND created_at >= ${from}${q.cases} GROUP BY ${sql.raw(FIX_MEASURES.tenths)}`,
  );
  const medianTenths = median([...tenths, ...(await archivedFixes(store, 'tenths', day, scope))]);

  // Per fingerprint and week, from the partial index of migration 009 and the archive's counters.
  const byWeek = await all(
    db,
    sql<{ fingerprint: string; week: number; n: number; entry: string }>`SELECT fingerprint, week, SUM(n) AS n, MIN(entry) AS entry FROM (
         SELECT fingerprint, ${CASE_WEEK} AS week, COUNT(*) AS n, MIN(entry) AS entry FROM cases${store.dialect.indexedBy('cases_unrecognized')}
           WHERE recognized = 0 AND created_at >= ${from}${q.cases} GROUP BY fingerprint, ${CASE_WEEK}
         UNION ALL SELECT fingerprint, ${WEEK_OF_DAY('day')}, SUM(cases), MIN(entry) FROM archived_cases WHERE day >= ${day} AND fingerprint <> ''${q.archive} GROUP BY 1, 2
       ) weekly GROUP BY fingerprint, week`,
  );
  const unknown = new Map<string, { fingerprint: string; cases: number; entry: string; weeks: { week: string; cases: number }[] }>();
  for (const r of byWeek.sort((a, b) => a.week - b.week)) {
    const u = unknown.get(r.fingerprint) ?? { fingerprint: r.fingerprint, cases: 0, entry: r.entry, weeks: [] };
    u.cases += r.n;
    u.entry = u.entry < r.entry ? u.entry : r.entry;
    u.weeks.push({ week: weekStart(r.week), cases: r.n });
    unknown.set(r.fingerprint, u);
  }
  const example = (fingerprint: string) =>
    value<string | null>(db, sql`SELECT ${store.dialect.jsonText('facts', ['exception', 'message'])} AS message FROM cases WHERE fingerprint = ${fingerprint} AND recognized = 0${q.cases} LIMIT 1`);
  const unrecognized = await Promise.all(
    [...unknown.values()]
      .sort((a, b) => b.cases - a.cases || a.fingerprint.localeCompare(b.fingerprint))
      .slice(0, 10)
      // From a case still kept, if any (the archive keeps no text), and in scope: an error message never leaves its server.
      .map(async (u) => ({ ...u, example: (await example(u.fingerprint)) ?? null })),
  );

  const doubted = await all(
    db,
    sql<{ entry: string; n: number }>`SELECT misdiagnosed AS entry, COUNT(*) AS n FROM cases${store.dialect.indexedBy('cases_misdiagnosed')} WHERE misdiagnosed IS NOT NULL AND created_at >= ${from}${q.cases} GROUP BY misdiagnosed
       UNION ALL SELECT entry, cases FROM archived_misdiagnoses WHERE day >= ${day}${q.archive}`,
  );
  const doubtedBy = new Map<string, number>();
  for (const r of doubted) doubtedBy.set(r.entry, (doubtedBy.get(r.entry) ?? 0) + Number(r.n));
  const misdiagnosed = [...doubtedBy].reduce((n, [, c]) => n + c, 0);
  const recent = await all(
    db,
    sql<{ caseId: string; doubted: string; now: string }>`SELECT id AS "caseId", misdiagnosed AS doubted, ${store.dialect.jsonText('state', ['plan', 'entry'])} AS now FROM cases${store.dialect.indexedBy('cases_misdiagnosed')}
       WHERE misdiagnosed IS NOT NULL AND created_at >= ${from}${q.cases} ORDER BY created_at DESC LIMIT 10`,
  );

  return {
    since: opts.sinceMs !== undefined ? from : null,
    until,
    scope,
    cases: total,
    shares: {
      resolvedConfirmed: share(sum('resolvedConfirmed'), total),
      resolvedAssumed: share(sum('resolvedAssumed'), total),
      escalated: share(sum('escalated'), total),
      abandoned: share(sum('abandoned'), total),
      cancelled: share(sum('cancelled'), total),
      open: share(sum('open'), total),
    },
    entries,
    misdiagnosed: {
      cases: misdiagnosed,
      share: share(misdiagnosed, total),
      byEntry: [...doubtedBy].map(([entry, cases]) => ({ entry, cases })).sort((a, b) => b.cases - a.cases || a.entry.localeCompare(b.entry)),
      recent,
    },
    steps: [...steps.values()].sort((a, b) => b.resolvedConfirmed - a.resolvedConfirmed || b.reached - a.reached || a.step.localeCompare(b.step)),
    medianStepsToResolution: medianSteps,
    medianMinutesToResolution: medianTenths === null ? null : Math.round(medianTenths) / 10,
    unrecognized,
    questions: await questionStats(store, from, scope),
    funnel: await funnel(store, day, scope, entries),
    weeks: [...weekRows.entries()].sort((a, b) => a[0] - b[0]).map(([, w]) => w),
  };
}

/** Each entry's steps, from the daily counters of migration 008; entries in the order of `entries`, steps by how often they were offered. */
async function funnel(store: Sql, day: number, scope: Scope, entries: EntryStats[]): Promise<Stats['funnel']> {
  const q = scoped(store, scope);
  const rows = await all(
    store.db,
    sql<FunnelStep & { entry: string }>`SELECT entry, step, SUM(offered) AS offered, SUM(tried) AS tried, SUM(fixed) AS fixed, SUM(assumed) AS assumed, SUM(moved_on) AS "movedOn"
       FROM step_days${store.dialect.indexedBy('step_days_grouped')} WHERE day >= ${day}${q.archive} GROUP BY entry, step`,
  );
  const byEntry = new Map<string, FunnelStep[]>();
  for (const { entry, ...r } of rows) byEntry.set(entry, [...(byEntry.get(entry) ?? []), r]);
  const rank = new Map(entries.map((e, i) => [e.entry, i]));
  return [...byEntry.entries()]
    .sort((a, b) => (rank.get(a[0]) ?? Infinity) - (rank.get(b[0]) ?? Infinity) || a[0].localeCompare(b[0]))
    .map(([entry, steps]) => ({ entry, steps: steps.sort((a, b) => b.offered - a.offered || a.step.localeCompare(b.step)) }));
}

async function questionStats(store: Sql, from: number, scope: Scope): Promise<Stats['questions']> {
  const day = dayOf(from);
  const q = scoped(store, scope);
  const archived = sql`UNION ALL SELECT question, NULLIF(choice, ''), SUM(asked), SUM(typed) FROM archived_questions WHERE day >= ${day}${q.archive} GROUP BY question, choice`;
  const period = from > 0 ? sql`${store.dialect.indexedBy('case_questions_period')} WHERE created_at >= ${from}` : sql`${store.dialect.indexedBy('case_questions_all')} WHERE 1 = 1`;
  const rows = await all(
    store.db,
    sql<{ question: Question; choice: Choice | null; n: number; typed: number }>`SELECT question, choice, COUNT(*) AS n, SUM(typed) AS typed FROM case_questions${period}${q.byCase} GROUP BY question, choice ${archived}`,
  );
  const casesAsked =
    (await value<number>(
      store.db,
      sql`SELECT (SELECT COUNT(DISTINCT case_id) FROM case_questions${store.dialect.indexedBy('case_questions_period')} WHERE created_at >= ${from}${q.byCase}) + (SELECT COALESCE(SUM(asked), 0) FROM archived_cases WHERE day >= ${day}${q.archive}) AS n`,
    )) ?? 0;
  const byQuestion = (Object.keys(QUESTIONS) as Question[]).map((question): QuestionStats => {
    const mine = rows.filter((r) => r.question === question);
    const count = (choice: Choice | null) => mine.filter((r) => r.choice === choice).reduce((n, r) => n + r.n, 0);
    return {
      question,
      asked: mine.reduce((n, r) => n + r.n, 0),
      // Every choice is listed, zeros included, so a moderator sees the whole spread of answers.
      answers: Object.fromEntries(QUESTIONS[question].choices.map((c) => [c.choice, count(c.choice)])),
      typed: mine.reduce((n, r) => n + r.typed, 0),
      unanswered: count(null),
    };
  });
  return { casesAsked, byQuestion };
}
