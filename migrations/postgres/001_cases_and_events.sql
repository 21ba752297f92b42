-- migrations/001 for PostgreSQL: the same tables, in PostgreSQL's types (times in ms since epoch
-- need BIGINT). PostgreSQL has no rowid; the column of that name gives cases the same tie-breaker
-- of insertion order that SQLite's queries use.
CREATE TABLE cases (
  id             TEXT PRIMARY KEY,
  platform       TEXT NOT NULL,
  server         TEXT,
  channel        TEXT,
  user_id        TEXT NOT NULL,
  created_at     BIGINT NOT NULL,
  updated_at     BIGINT NOT NULL,
  category       TEXT NOT NULL,
  entry          TEXT NOT NULL,
  kb_version     TEXT NOT NULL,
  facts          TEXT NOT NULL,
  paste          TEXT NOT NULL,
  status         TEXT NOT NULL DEFAULT 'open',
  resolving_step TEXT,
  state          TEXT NOT NULL,
  rowid          BIGINT GENERATED ALWAYS AS IDENTITY
);

CREATE TABLE events (
  case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
  seq     INTEGER NOT NULL,
  at      BIGINT NOT NULL,
  type    TEXT NOT NULL,
  step    TEXT,
  data    TEXT NOT NULL,
  PRIMARY KEY (case_id, seq)
);

CREATE INDEX cases_user ON cases (platform, user_id, updated_at);
