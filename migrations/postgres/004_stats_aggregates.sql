-- migrations/004 for PostgreSQL. No backfill from the event log: every PostgreSQL database was
-- created with all of these migrations at once, so none holds events from before this one.
ALTER TABLE cases ADD COLUMN steps_offered INTEGER NOT NULL DEFAULT 0;
ALTER TABLE cases ADD COLUMN resolved_at BIGINT;

CREATE TABLE case_steps (
  case_id    TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
  step       TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  tried      INTEGER NOT NULL DEFAULT 0,
  moved_on   INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (case_id, step)
);

CREATE INDEX case_steps_period ON case_steps (created_at, step, tried, moved_on);
CREATE INDEX case_steps_all ON case_steps (step, tried, moved_on);
CREATE INDEX cases_stats ON cases (created_at, entry, category, status, resolution, resolving_step, steps_offered, resolved_at, recognized, fingerprint);
CREATE INDEX cases_fingerprint ON cases (fingerprint);
