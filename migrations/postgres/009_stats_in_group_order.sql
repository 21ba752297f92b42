-- migrations/009 for PostgreSQL: the same indexes, one with a column more. PostgreSQL can aggregate
-- by hash without them, but reading an index alone, in order, spares it the table's wide rows
-- (paste, facts, state) and the hash table. It reads an index alone only when the index holds
-- every column the query names as a column: hence resolved_at beside the minutes-to-a-fix
-- expression (300,000 cases: 21 ms instead of 133 ms), which SQLite does not need.

-- Cases per entry, outcome, resolving step, week and steps offered: one pass answers the entry
-- figures, the weeks, the steps that resolved and the steps-to-a-fix median (src/store/stats.ts).
CREATE INDEX cases_grouped ON cases (entry, category, status, resolution, resolving_step, (((created_at / 86400000) + 3) / 7), steps_offered, created_at);
-- Minutes to a confirmed fix, in tenths (archive.ts's FIX_MEASURES.tenths, the same expression).
CREATE INDEX cases_fix_tenths ON cases ((CAST(ROUND((resolved_at - created_at) / 6000.0) AS INTEGER)), created_at, resolved_at) WHERE status = 'resolved' AND resolution = 'confirmed';
-- They replace the index every one of those queries sorted from.
DROP INDEX cases_stats;

-- Unrecognized errors per fingerprint and week, with the entry they fell to.
DROP INDEX cases_unrecognized;
CREATE INDEX cases_unrecognized ON cases (fingerprint, (((created_at / 86400000) + 3) / 7), entry, created_at, platform, server) WHERE recognized = 0;

-- Steps reached per step, whatever the period.
DROP INDEX case_steps_all;
DROP INDEX case_steps_period;
CREATE INDEX case_steps_grouped ON case_steps (step, created_at, tried, moved_on);

-- The funnel per entry and step, from the daily counters.
CREATE INDEX step_days_grouped ON step_days (entry, step, day, platform, server, offered, tried, fixed, assumed, moved_on);
