-- Cases are deleted (forget, retention), yet stats must stay true: just before a case goes, what
-- stats read about it is added to these per-day counters, which name no user and no case. Stats
-- read live cases as before plus these. `day` is the case's creation, in days since 1970 (UTC).
-- Text columns hold '' for "none", so that each counter row has one key.
CREATE TABLE archived_cases (
  day            INTEGER NOT NULL,
  entry          TEXT NOT NULL,
  category       TEXT NOT NULL,
  status         TEXT NOT NULL,
  resolution     TEXT NOT NULL,            -- confirmed | assumed | ''
  resolving_step TEXT NOT NULL,
  fingerprint    TEXT NOT NULL,            -- of an error the kb did not recognize; '' when it did
  cases          INTEGER NOT NULL,
  asked          INTEGER NOT NULL,         -- of them, cases asked a question before the first step
  PRIMARY KEY (day, entry, category, status, resolution, resolving_step, fingerprint)
) WITHOUT ROWID;

-- Per step, as case_steps: cases that reached it, tried it, moved on to a different failure after it.
CREATE TABLE archived_steps (
  day      INTEGER NOT NULL,
  step     TEXT NOT NULL,
  reached  INTEGER NOT NULL,
  tried    INTEGER NOT NULL,
  moved_on INTEGER NOT NULL,
  PRIMARY KEY (day, step)
) WITHOUT ROWID;

-- Per question and answer, as case_questions ('' = unanswered).
CREATE TABLE archived_questions (
  day      INTEGER NOT NULL,
  question TEXT NOT NULL,
  choice   TEXT NOT NULL,
  asked    INTEGER NOT NULL,
  typed    INTEGER NOT NULL,
  PRIMARY KEY (day, question, choice)
) WITHOUT ROWID;

-- The medians over confirmed resolutions, as distributions: steps offered (measure 'steps'), and
-- minutes to the fix in tenths, the precision stats shows (measure 'tenths').
CREATE TABLE archived_fixes (
  day     INTEGER NOT NULL,
  measure TEXT NOT NULL,
  value   INTEGER NOT NULL,
  cases   INTEGER NOT NULL,
  PRIMARY KEY (day, measure, value)
) WITHOUT ROWID;
