// The stats archive (migration 006): what stats read about cases, kept as per-day counters that
// name no user and no case, for the cases that are deleted (forget, retention), so that deleting
// a case never changes what stats report.
import { sql, type RawBuilder } from 'kysely';
import type { Executor } from './sql.ts';

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
export async function archiveCases(tx: Executor, where: RawBuilder<unknown>): Promise<void> {
  const doomed = sql`c.id IN (SELECT id FROM cases WHERE ${where})`;
  const day = sql.raw(`created_at / ${DAY_MS}`);
  // Counters keep the platform and server (migration 007), so stats scoped to one stay true.
  const place = sql.raw("platform, COALESCE(server, '')");
  await sql`INSERT INTO archived_cases (day, platform, server, entry, category, status, resolution, resolving_step, fingerprint, cases, asked)
     SELECT ${day}, ${place}, entry, category, status, COALESCE(resolution, ''), COALESCE(resolving_step, ''), CASE WHEN recognized = 1 THEN '' ELSE fingerprint END, COUNT(*),
       SUM(CASE WHEN EXISTS (SELECT 1 FROM case_questions q WHERE q.case_id = cases.id) THEN 1 ELSE 0 END)
     FROM cases WHERE ${where} GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
     ON CONFLICT (day, platform, server, entry, category, status, resolution, resolving_step, fingerprint) DO UPDATE
       SET cases = archived_cases.cases + excluded.cases, asked = archived_cases.asked + excluded.asked`.execute(tx);
  await sql`INSERT INTO archived_steps (day, platform, server, step, reached, tried, moved_on)
     SELECT s.${day}, c.platform, COALESCE(c.server, ''), step, COUNT(*), SUM(tried), SUM(moved_on) FROM case_steps s JOIN cases c ON c.id = s.case_id WHERE ${doomed} GROUP BY 1, 2, 3, 4
     ON CONFLICT (day, platform, server, step) DO UPDATE
       SET reached = archived_steps.reached + excluded.reached, tried = archived_steps.tried + excluded.tried, moved_on = archived_steps.moved_on + excluded.moved_on`.execute(tx);
  await sql`INSERT INTO archived_questions (day, platform, server, question, choice, asked, typed)
     SELECT q.${day}, c.platform, COALESCE(c.server, ''), question, COALESCE(choice, ''), COUNT(*), SUM(typed) FROM case_questions q JOIN cases c ON c.id = q.case_id WHERE ${doomed} GROUP BY 1, 2, 3, 4, 5
     ON CONFLICT (day, platform, server, question, choice) DO UPDATE
       SET asked = archived_questions.asked + excluded.asked, typed = archived_questions.typed + excluded.typed`.execute(tx);
  await sql`INSERT INTO archived_misdiagnoses (day, platform, server, entry, cases)
     SELECT ${day}, ${place}, misdiagnosed, COUNT(*) FROM cases WHERE (${where}) AND misdiagnosed IS NOT NULL GROUP BY 1, 2, 3, 4
     ON CONFLICT (day, platform, server, entry) DO UPDATE SET cases = archived_misdiagnoses.cases + excluded.cases`.execute(tx);
  for (const [measure, value] of Object.entries(FIX_MEASURES)) {
    await sql`INSERT INTO archived_fixes (day, platform, server, measure, value, cases)
       SELECT ${day}, ${place}, ${measure}, ${sql.raw(value)}, COUNT(*) FROM cases WHERE (${where}) AND status = 'resolved' AND resolution = 'confirmed' GROUP BY 1, 2, 3, 5
       ON CONFLICT (day, platform, server, measure, value) DO UPDATE SET cases = archived_fixes.cases + excluded.cases`.execute(tx);
  }
}
