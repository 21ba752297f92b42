-- One case per conversation and per message, whatever arrives twice or at once (double clicks, a
-- shortcut and a mention together, Slack retries, re-deliveries after a restart): the store
-- decides, in the transaction that creates the case, with these two unique keys.
--
-- `source` names what a case was opened from, per platform: a message (Discord message id, Slack
-- channel:ts) or, when there is none, the command invocation.
ALTER TABLE cases ADD COLUMN source TEXT;
CREATE UNIQUE INDEX cases_source ON cases (platform, source) WHERE source IS NOT NULL;

-- Databases written before this may hold several open cases in one thread (the bug this fixes):
-- the most recently active keeps the thread, the others go on in their channel until they close.
UPDATE cases SET thread = NULL
WHERE status = 'open' AND thread IS NOT NULL AND EXISTS (
  SELECT 1 FROM cases o WHERE o.platform = cases.platform AND o.thread = cases.thread AND o.status = 'open'
    AND (o.updated_at > cases.updated_at OR (o.updated_at = cases.updated_at AND o.rowid > cases.rowid)));
CREATE UNIQUE INDEX cases_open_thread ON cases (platform, thread) WHERE status = 'open' AND thread IS NOT NULL;

-- The chat message that carries the case's live buttons, so they come off when the case moves on
-- (a new log, the question shown again), also after a restart. Adapter-specific reference.
ALTER TABLE cases ADD COLUMN buttons TEXT;

-- Stats in a Discord server or a Slack workspace read that server's cases only.
CREATE INDEX cases_scope ON cases (platform, server, created_at, entry, category, status, resolution, resolving_step, steps_offered, resolved_at, recognized, fingerprint);

-- A log posted in someone else's case thread is kept here (redacted, as a case's paste) until its
-- author presses the button that opens their own case in a new thread. Forget and retention
-- delete drafts with the cases.
CREATE TABLE drafts (
  id         TEXT PRIMARY KEY,
  platform   TEXT NOT NULL,
  server     TEXT,
  user_id    TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  paste      TEXT NOT NULL
);
CREATE INDEX drafts_user ON drafts (platform, user_id);
CREATE INDEX drafts_created ON drafts (created_at);

-- Platform deliveries already handled (Slack event ids), so an event redelivered after a timeout
-- or a restart is handled once. Ids only; pruned after a day.
CREATE TABLE deliveries (
  platform TEXT NOT NULL,
  id       TEXT NOT NULL,
  at       INTEGER NOT NULL,
  PRIMARY KEY (platform, id)
) WITHOUT ROWID;
CREATE INDEX deliveries_at ON deliveries (at);

-- The archive's counters (migration 006) gain the platform and server of the deleted cases, so
-- scoped stats stay true too. Rows archived before this have neither ('' for both): only the
-- unscoped stats (the CLI without --server/--platform) count them.
CREATE TABLE archived_cases_007 (
  day            INTEGER NOT NULL,
  platform       TEXT NOT NULL,
  server         TEXT NOT NULL,
  entry          TEXT NOT NULL,
  category       TEXT NOT NULL,
  status         TEXT NOT NULL,
  resolution     TEXT NOT NULL,
  resolving_step TEXT NOT NULL,
  fingerprint    TEXT NOT NULL,
  cases          INTEGER NOT NULL,
  asked          INTEGER NOT NULL,
  PRIMARY KEY (day, platform, server, entry, category, status, resolution, resolving_step, fingerprint)
) WITHOUT ROWID;
INSERT INTO archived_cases_007 SELECT day, '', '', entry, category, status, resolution, resolving_step, fingerprint, cases, asked FROM archived_cases;
DROP TABLE archived_cases;
ALTER TABLE archived_cases_007 RENAME TO archived_cases;

CREATE TABLE archived_steps_007 (
  day      INTEGER NOT NULL,
  platform TEXT NOT NULL,
  server   TEXT NOT NULL,
  step     TEXT NOT NULL,
  reached  INTEGER NOT NULL,
  tried    INTEGER NOT NULL,
  moved_on INTEGER NOT NULL,
  PRIMARY KEY (day, platform, server, step)
) WITHOUT ROWID;
INSERT INTO archived_steps_007 SELECT day, '', '', step, reached, tried, moved_on FROM archived_steps;
DROP TABLE archived_steps;
ALTER TABLE archived_steps_007 RENAME TO archived_steps;

CREATE TABLE archived_questions_007 (
  day      INTEGER NOT NULL,
  platform TEXT NOT NULL,
  server   TEXT NOT NULL,
  question TEXT NOT NULL,
  choice   TEXT NOT NULL,
  asked    INTEGER NOT NULL,
  typed    INTEGER NOT NULL,
  PRIMARY KEY (day, platform, server, question, choice)
) WITHOUT ROWID;
INSERT INTO archived_questions_007 SELECT day, '', '', question, choice, asked, typed FROM archived_questions;
DROP TABLE archived_questions;
ALTER TABLE archived_questions_007 RENAME TO archived_questions;

CREATE TABLE archived_fixes_007 (
  day      INTEGER NOT NULL,
  platform TEXT NOT NULL,
  server   TEXT NOT NULL,
  measure  TEXT NOT NULL,
  value    INTEGER NOT NULL,
  cases    INTEGER NOT NULL,
  PRIMARY KEY (day, platform, server, measure, value)
) WITHOUT ROWID;
INSERT INTO archived_fixes_007 SELECT day, '', '', measure, value, cases FROM archived_fixes;
DROP TABLE archived_fixes;
ALTER TABLE archived_fixes_007 RENAME TO archived_fixes;
