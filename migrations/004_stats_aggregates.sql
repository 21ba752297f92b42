-- Stats over a million cases must not scan every event or parse JSON: each case keeps a row per
-- step it reached (case_steps), its offered-step count and its resolution time, written with the
-- events, and one covering index answers the per-entry figures without touching wide rows.
ALTER TABLE cases ADD COLUMN steps_offered INTEGER NOT NULL DEFAULT 0;
ALTER TABLE cases ADD COLUMN resolved_at INTEGER;

CREATE TABLE case_steps (
  case_id    TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
  step       TEXT NOT NULL,
  created_at INTEGER NOT NULL,          -- the case's, so stats filter by period without a join
  tried      INTEGER NOT NULL DEFAULT 0, -- the user tried it (worked, or still failing after applying it)
  moved_on   INTEGER NOT NULL DEFAULT 0, -- a new log showed a different failure after it
  PRIMARY KEY (case_id, step)
) WITHOUT ROWID;

-- Backfill from the event log of databases that predate this migration. (`+e.type` keeps SQLite
-- on the (case_id, seq) key for these per-case lookups instead of the events_type index.)
INSERT OR IGNORE INTO case_steps (case_id, step, created_at)
  SELECT e.case_id, e.step, c.created_at FROM events e JOIN cases c ON c.id = e.case_id WHERE e.type = 'offered' AND e.step IS NOT NULL;
UPDATE case_steps SET tried = 1 WHERE EXISTS (
  SELECT 1 FROM events e WHERE e.case_id = case_steps.case_id AND e.step = case_steps.step AND +e.type = 'answered'
    AND json_extract(e.data, '$.answer') IN ('worked', 'failed') AND COALESCE(json_extract(e.data, '$.reason'), '') <> 'could_not_apply');
UPDATE case_steps SET moved_on = 1 WHERE EXISTS (
  SELECT 1 FROM events e WHERE e.case_id = case_steps.case_id AND e.step = case_steps.step AND +e.type = 'plan_switched');
UPDATE cases SET
  steps_offered = (SELECT COUNT(*) FROM events e WHERE e.case_id = cases.id AND +e.type = 'offered'),
  resolved_at = (SELECT MAX(at) FROM events e WHERE e.case_id = cases.id AND +e.type = 'resolved');

CREATE INDEX case_steps_period ON case_steps (created_at, step, tried, moved_on);
CREATE INDEX case_steps_all ON case_steps (step, tried, moved_on);
CREATE INDEX cases_stats ON cases (created_at, entry, category, status, resolution, resolving_step, steps_offered, resolved_at, recognized, fingerprint);
CREATE INDEX cases_fingerprint ON cases (fingerprint);
