-- migrations/010 for PostgreSQL.
ALTER TABLE cases ADD COLUMN misdiagnosed TEXT;
CREATE INDEX cases_misdiagnosed ON cases (misdiagnosed, created_at, platform, server) WHERE misdiagnosed IS NOT NULL;

CREATE TABLE archived_misdiagnoses (
  day      INTEGER NOT NULL,
  platform TEXT NOT NULL,
  server   TEXT NOT NULL,
  entry    TEXT NOT NULL,
  cases    INTEGER NOT NULL,
  PRIMARY KEY (day, platform, server, entry)
);
