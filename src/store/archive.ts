// The stats archive (migration 006): what stats read about cases, kept as per-day counters that
// name no user and no case, for the cases that are deleted (forget, retention), so that deleting
// a case never changes what stats report.
import type { Db } from './db.ts';

export const DAY_MS = 86_400_000;
/** The archive counts deleted cases by the UTC day they were created. */
export const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

/** What the medians are taken of, per confirmed resolution: steps offered, and minutes to the fix in tenths (as shown). */
export const FIX_MEASURES = {
  steps: 'steps_offered',
  tenths: 'CAST(ROUND((resolved_at - created_at) / 6000.0) AS INTEGER)',
} as const;

/**
 * Adds what stats read about the cases `where` selects (a condition on the cases table) to the
 * archive's counters, in the transaction that deletes them, so stats stay true without them.
 */
export function archiveCases(db: Db, where: string, params: unknown[]): void {
  const doomed = `c.id IN (SELECT id FROM cases WHERE ${where})`;
  const day = `created_at / ${DAY_MS}`;
  // Counters keep the platform and server (migration 007), so stats scoped to one stay true.
  const place = "platform, COALESCE(server, '')";
  db.prepare(
    `INSERT INTO archived_cases (day, platform, server, entry, category, status, resolution, resolving_step, fingerprint, cases, asked)
     SELECT ${day}, ${place}, entry, category, status, COALESCE(resolution, ''), COALESCE(resolving_step, ''), IIF(recognized, '', fingerprint), COUNT(*),
       SUM(EXISTS (SELECT 1 FROM case_questions q WHERE q.case_id = cases.id))
     FROM cases WHERE ${where} GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
     ON CONFLICT DO UPDATE SET cases = cases + excluded.cases, asked = asked + excluded.asked`,
  ).run(...params);
  db.prepare(
    `INSERT INTO archived_steps (day, platform, server, step, reached, tried, moved_on)
     SELECT s.${day}, c.platform, COALESCE(c.server, ''), step, COUNT(*), SUM(tried), SUM(moved_on) FROM case_steps s JOIN cases c ON c.id = s.case_id WHERE ${doomed} GROUP BY 1, 2, 3, 4
     ON CONFLICT DO UPDATE SET reached = reached + excluded.reached, tried = tried + excluded.tried, moved_on = moved_on + excluded.moved_on`,
  ).run(...params);
  db.prepare(
    `INSERT INTO archived_questions (day, platform, server, question, choice, asked, typed)
     SELECT q.${day}, c.platform, COALESCE(c.server, ''), question, COALESCE(choice, ''), COUNT(*), SUM(typed) FROM case_questions q JOIN cases c ON c.id = q.case_id WHERE ${doomed} GROUP BY 1, 2, 3, 4, 5
     ON CONFLICT DO UPDATE SET asked = asked + excluded.asked, typed = typed + excluded.typed`,
  ).run(...params);
  for (const [measure, value] of Object.entries(FIX_MEASURES)) {
    db.prepare(
      `INSERT INTO archived_fixes (day, platform, server, measure, value, cases)
       SELECT ${day}, ${place}, '${measure}', ${value}, COUNT(*) FROM cases WHERE (${where}) AND status = 'resolved' AND resolution = 'confirmed' GROUP BY 1, 2, 3, 5
       ON CONFLICT DO UPDATE SET cases = cases + excluded.cases`,
    ).run(...params);
  }
}
