-- Forget and retention must leave no copy of a user's rows without holding the write lock for
-- seconds (a VACUUM did, on a large file). Their rows are moved to fresh pages a few at a time
-- (see wipe in src/store/cases.ts), which needs each table's rows appended in rowid order: these
-- three were WITHOUT ROWID tables, kept in key order. Their indexes name the key columns that the
-- WITHOUT ROWID form carried in them implicitly, so each stays covering. SQLite only: PostgreSQL
-- reclaims deleted rows itself (see wipe).
CREATE TABLE events_011 (
  case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
  seq     INTEGER NOT NULL,
  at      INTEGER NOT NULL,
  type    TEXT NOT NULL,
  step    TEXT,
  data    TEXT NOT NULL,                       -- JSON of the whole event
  PRIMARY KEY (case_id, seq)
);
INSERT INTO events_011 (case_id, seq, at, type, step, data) SELECT case_id, seq, at, type, step, data FROM events ORDER BY at, case_id, seq;
DROP TABLE events;
ALTER TABLE events_011 RENAME TO events;
CREATE INDEX events_type ON events (type, step, case_id, seq);

CREATE TABLE case_steps_011 (
  case_id    TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
  step       TEXT NOT NULL,
  created_at INTEGER NOT NULL,          -- the case's, so stats filter by period without a join
  tried      INTEGER NOT NULL DEFAULT 0, -- the user tried it (worked, or still failing after applying it)
  moved_on   INTEGER NOT NULL DEFAULT 0, -- a new log showed a different failure after it
  PRIMARY KEY (case_id, step)
);
INSERT INTO case_steps_011 (case_id, step, created_at, tried, moved_on) SELECT case_id, step, created_at, tried, moved_on FROM case_steps ORDER BY created_at, case_id, step;
DROP TABLE case_steps;
ALTER TABLE case_steps_011 RENAME TO case_steps;
CREATE INDEX case_steps_grouped ON case_steps (step, created_at, tried, moved_on, case_id);

CREATE TABLE case_questions_011 (
  case_id    TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
  question   TEXT NOT NULL,              -- stage | vendor
  created_at INTEGER NOT NULL,           -- the case's, so stats filter by period without a join
  choice     TEXT,                       -- the answer (unknown = "I don't know"); NULL while unanswered
  typed      INTEGER NOT NULL DEFAULT 0, -- answered in words (a node's name, "AMD") instead of a button
  PRIMARY KEY (case_id, question)
);
INSERT INTO case_questions_011 (case_id, question, created_at, choice, typed) SELECT case_id, question, created_at, choice, typed FROM case_questions ORDER BY created_at, case_id, question;
DROP TABLE case_questions;
ALTER TABLE case_questions_011 RENAME TO case_questions;
CREATE INDEX case_questions_period ON case_questions (created_at, question, choice, typed, case_id);
CREATE INDEX case_questions_all ON case_questions (question, choice, typed, case_id);
