// The queries behind the moderator statistics: one scope's cases created since a time, as rows and
// plain aggregates, which src/stats/figures.ts shapes into figures. Every query reads aggregates
// kept at write time (migration 004) through covering indexes, plus the archive's counters of
// deleted cases (migration 006), whole days of them.
import type { Choice, Question } from '../records/case.ts';
import { DAY_MS, dayOf, FIX_MEASURES } from './archive.ts';
import { sql } from 'kysely';
import { all, value, type Sql } from './sql.ts';

/** Which cases stats count; unset fields count all. A server id is its platform's (guild or team id). */
export interface Scope {
  platform?: string;
  server?: string;
}

/** Weeks start on Monday: day 0 (1970-01-01) was a Thursday, so week w starts on day 7w - 3. */
const WEEK_OF_DAY = (day: string) => sql.raw(`((${day}) + 3) / 7`);
/** A case's week, written as migration 009's indexes write it, so SQLite reads them in its order. */
const CASE_WEEK = WEEK_OF_DAY(`created_at / ${DAY_MS}`);
/** The Monday a week of these rows starts on, as YYYY-MM-DD. */
export const weekStart = (week: number) => new Date((week * 7 - 3) * DAY_MS).toISOString().slice(0, 10);

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

/**
 * One pass over the cases, in the order of migration 009's index, by entry, outcome, resolving
 * step, week and steps offered: the per-entry figures, the weeks, the steps that resolved cases
 * and the steps-to-a-fix median all come from it.
 */
export function caseGroups(store: Sql, from: number, scope: Scope) {
  const q = scoped(store, scope);
  return all(
    store.db,
    sql<{ entry: string; category: string; status: string; resolution: string | null; step: string | null; week: number; steps: number | null; n: number }>`
      SELECT entry, category, status, resolution, resolving_step AS step, ${CASE_WEEK} AS week, steps_offered AS steps, COUNT(*) AS n FROM ${q.from('cases_grouped')}
        WHERE created_at >= ${from}${q.cases} GROUP BY entry, category, status, resolution, resolving_step, ${CASE_WEEK}, steps_offered
      UNION ALL SELECT entry, category, status, resolution, resolving_step, ${WEEK_OF_DAY('day')}, NULL, cases FROM archived_cases WHERE day >= ${dayOf(from)}${q.archive}`,
  );
}

/** Per step (kept cases' rows, then the archive's), how often it was offered, tried, and followed by a different memory failure. */
export function stepCounts(store: Sql, from: number, scope: Scope) {
  const q = scoped(store, scope);
  const archivedSteps = sql`UNION ALL SELECT step, SUM(reached), SUM(tried), SUM(moved_on) FROM archived_steps WHERE day >= ${dayOf(from)}${q.archive} GROUP BY step`;
  return all(
    store.db,
    sql<{ step: string; reached: number; tried: number; movedOn: number }>`SELECT step, COUNT(*) AS reached, SUM(tried) AS tried, SUM(moved_on) AS "movedOn" FROM case_steps${store.dialect.indexedBy('case_steps_grouped')}
       WHERE created_at >= ${from}${q.byCase} GROUP BY step ${archivedSteps}`,
  );
}

/** The archive's distribution of a confirmed-resolution measure. */
export function archivedFixes(store: Sql, measure: keyof typeof FIX_MEASURES, from: number, scope: Scope): Promise<{ value: number; n: number }[]> {
  return all(store.db, sql<{ value: number; n: number }>`SELECT value, cases AS n FROM archived_fixes WHERE measure = ${measure} AND day >= ${dayOf(from)}${scoped(store, scope).archive}`);
}

/** The kept cases' distribution of minutes (in tenths) to a confirmed fix. */
export function fixTenths(store: Sql, from: number, scope: Scope) {
  const q = scoped(store, scope);
  return all(
    store.db,
    sql<{ value: number; n: number }>`SELECT ${sql.raw(FIX_MEASURES.tenths)} AS value, COUNT(*) AS n FROM ${q.from('cases_fix_tenths')}
       WHERE status = 'resolved' AND resolution = 'confirmed' AND created_at >= ${from}${q.cases} GROUP BY ${sql.raw(FIX_MEASURES.tenths)}`,
  );
}

/** Errors the kb did not recognize, per fingerprint and week, from the partial index of migration 009 and the archive's counters. */
export function unrecognizedByWeek(store: Sql, from: number, scope: Scope) {
  const q = scoped(store, scope);
  return all(
    store.db,
    sql<{ fingerprint: string; week: number; n: number; entry: string }>`SELECT fingerprint, week, SUM(n) AS n, MIN(entry) AS entry FROM (
         SELECT fingerprint, ${CASE_WEEK} AS week, COUNT(*) AS n, MIN(entry) AS entry FROM cases${store.dialect.indexedBy('cases_unrecognized')}
           WHERE recognized = 0 AND created_at >= ${from}${q.cases} GROUP BY fingerprint, ${CASE_WEEK}
         UNION ALL SELECT fingerprint, ${WEEK_OF_DAY('day')}, SUM(cases), MIN(entry) FROM archived_cases WHERE day >= ${dayOf(from)} AND fingerprint <> ''${q.archive} GROUP BY 1, 2
       ) weekly GROUP BY fingerprint, week`,
  );
}

/** An unrecognized error's message: from a case still kept, if any (the archive keeps no text), and in scope: an error message never leaves its server. */
export async function unrecognizedExample(store: Sql, fingerprint: string, scope: Scope): Promise<string | null> {
  const q = scoped(store, scope);
  return (
    (await value<string | null>(
      store.db,
      sql`SELECT ${store.dialect.jsonText('facts', ['exception', 'message'])} AS message FROM cases WHERE fingerprint = ${fingerprint} AND recognized = 0${q.cases} LIMIT 1`,
    )) ?? null
  );
}

/** Cases whose user said the diagnosis was not their problem, by the entry they doubted: kept cases' rows, then the archive's. */
export function doubtedEntries(store: Sql, from: number, scope: Scope) {
  const q = scoped(store, scope);
  return all(
    store.db,
    sql<{ entry: string; n: number }>`SELECT misdiagnosed AS entry, COUNT(*) AS n FROM cases${store.dialect.indexedBy('cases_misdiagnosed')} WHERE misdiagnosed IS NOT NULL AND created_at >= ${from}${q.cases} GROUP BY misdiagnosed
       UNION ALL SELECT entry, cases FROM archived_misdiagnoses WHERE day >= ${dayOf(from)}${q.archive}`,
  );
}

/** The newest doubted cases still kept: what was doubted, and what the case went on as. */
export function recentMisdiagnoses(store: Sql, from: number, scope: Scope) {
  const q = scoped(store, scope);
  return all(
    store.db,
    sql<{ caseId: string; doubted: string; now: string }>`SELECT id AS "caseId", misdiagnosed AS doubted, ${store.dialect.jsonText('state', ['plan', 'entry'])} AS now FROM cases${store.dialect.indexedBy('cases_misdiagnosed')}
       WHERE misdiagnosed IS NOT NULL AND created_at >= ${from}${q.cases} ORDER BY created_at DESC LIMIT 10`,
  );
}

export interface FunnelRow {
  entry: string;
  step: string;
  offered: number;
  tried: number;
  /** Confirmed by the user. */
  fixed: number;
  /** Inferred from a later log that was no longer an OOM. */
  assumed: number;
  movedOn: number;
}

/** Each entry's steps, from the daily counters of migration 008. */
export function funnelRows(store: Sql, from: number, scope: Scope) {
  return all(
    store.db,
    sql<FunnelRow>`SELECT entry, step, SUM(offered) AS offered, SUM(tried) AS tried, SUM(fixed) AS fixed, SUM(assumed) AS assumed, SUM(moved_on) AS "movedOn"
       FROM step_days${store.dialect.indexedBy('step_days_grouped')} WHERE day >= ${dayOf(from)}${scoped(store, scope).archive} GROUP BY entry, step`,
  );
}

/** The questions asked before the first step, per question and choice (null: unanswered): how often, and how often typed. */
export function answerRows(store: Sql, from: number, scope: Scope) {
  const q = scoped(store, scope);
  const archived = sql`UNION ALL SELECT question, NULLIF(choice, ''), SUM(asked), SUM(typed) FROM archived_questions WHERE day >= ${dayOf(from)}${q.archive} GROUP BY question, choice`;
  const period = from > 0 ? sql`${store.dialect.indexedBy('case_questions_period')} WHERE created_at >= ${from}` : sql`${store.dialect.indexedBy('case_questions_all')} WHERE 1 = 1`;
  return all(
    store.db,
    sql<{ question: Question; choice: Choice | null; n: number; typed: number }>`SELECT question, choice, COUNT(*) AS n, SUM(typed) AS typed FROM case_questions${period}${q.byCase} GROUP BY question, choice ${archived}`,
  );
}

/** How many cases were asked any question before the first step. */
export async function casesAsked(store: Sql, from: number, scope: Scope): Promise<number> {
  const q = scoped(store, scope);
  return (
    (await value<number>(
      store.db,
      sql`SELECT (SELECT COUNT(DISTINCT case_id) FROM case_questions${store.dialect.indexedBy('case_questions_period')} WHERE created_at >= ${from}${q.byCase}) + (SELECT COALESCE(SUM(asked), 0) FROM archived_cases WHERE day >= ${dayOf(from)}${q.archive}) AS n`,
    )) ?? 0
  );
}
