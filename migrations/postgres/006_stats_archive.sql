-- migrations/006 for PostgreSQL.
CREATE TABLE archived_cases (
  day            INTEGER NOT NULL,
  entry          TEXT NOT NULL,
  category       TEXT NOT NULL,
  status         TEXT NOT NULL,
  resolution     TEXT NOT NULL,
  resolving_step TEXT NOT NULL,
  fingerprint    TEXT NOT NULL,
  cases          INTEGER NOT NULL,
  asked          INTEGER NOT NULL,
  PRIMARY KEY (day, entry, category, status, resolution, resolving_step, fingerprint)
);

CREATE TABLE archived_steps (
  day      INTEGER NOT NULL,
  step     TEXT NOT NULL,
  reached  INTEGER NOT NULL,
  tried    INTEGER NOT NULL,
  moved_on INTEGER NOT NULL,
  PRIMARY KEY (day, step)
);

CREATE TABLE archived_questions (
  day      INTEGER NOT NULL,
  question TEXT NOT NULL,
  choice   TEXT NOT NULL,
  asked    INTEGER NOT NULL,
  typed    INTEGER NOT NULL,
  PRIMARY KEY (day, question, choice)
);

CREATE TABLE archived_fixes (
  day     INTEGER NOT NULL,
  measure TEXT NOT NULL,
  value   INTEGER NOT NULL,
  cases   INTEGER NOT NULL,
  PRIMARY KEY (day, measure, value)
);
