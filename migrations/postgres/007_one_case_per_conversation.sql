-- migrations/007 for PostgreSQL: the two unique keys that make one case per message and one open
-- case per thread (PostgreSQL enforces them across every machine's transactions), the live
-- buttons, drafts, deliveries, and the archive's platform and server. No clean-up of doubles:
-- no PostgreSQL database predates the keys.
ALTER TABLE cases ADD COLUMN source TEXT;
CREATE UNIQUE INDEX cases_source ON cases (platform, source) WHERE source IS NOT NULL;
CREATE UNIQUE INDEX cases_open_thread ON cases (platform, thread) WHERE status = 'open' AND thread IS NOT NULL;

ALTER TABLE cases ADD COLUMN buttons TEXT;

CREATE INDEX cases_scope ON cases (platform, server, created_at, entry, category, status, resolution, resolving_step, steps_offered, resolved_at, recognized, fingerprint);

CREATE TABLE drafts (
  id         TEXT PRIMARY KEY,
  platform   TEXT NOT NULL,
  server     TEXT,
  user_id    TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  paste      TEXT NOT NULL
);
CREATE INDEX drafts_user ON drafts (platform, user_id);
CREATE INDEX drafts_created ON drafts (created_at);

CREATE TABLE deliveries (
  platform TEXT NOT NULL,
  id       TEXT NOT NULL,
  at       BIGINT NOT NULL,
  PRIMARY KEY (platform, id)
);
CREATE INDEX deliveries_at ON deliveries (at);

ALTER TABLE archived_cases ADD COLUMN platform TEXT NOT NULL DEFAULT '', ADD COLUMN server TEXT NOT NULL DEFAULT '';
ALTER TABLE archived_cases DROP CONSTRAINT archived_cases_pkey, ADD PRIMARY KEY (day, platform, server, entry, category, status, resolution, resolving_step, fingerprint);
ALTER TABLE archived_steps ADD COLUMN platform TEXT NOT NULL DEFAULT '', ADD COLUMN server TEXT NOT NULL DEFAULT '';
ALTER TABLE archived_steps DROP CONSTRAINT archived_steps_pkey, ADD PRIMARY KEY (day, platform, server, step);
ALTER TABLE archived_questions ADD COLUMN platform TEXT NOT NULL DEFAULT '', ADD COLUMN server TEXT NOT NULL DEFAULT '';
ALTER TABLE archived_questions DROP CONSTRAINT archived_questions_pkey, ADD PRIMARY KEY (day, platform, server, question, choice);
ALTER TABLE archived_fixes ADD COLUMN platform TEXT NOT NULL DEFAULT '', ADD COLUMN server TEXT NOT NULL DEFAULT '';
ALTER TABLE archived_fixes DROP CONSTRAINT archived_fixes_pkey, ADD PRIMARY KEY (day, platform, server, measure, value);
