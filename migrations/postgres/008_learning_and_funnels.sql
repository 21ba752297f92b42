-- migrations/008 for PostgreSQL. No backfill from the event log (see 004).
CREATE TABLE step_outcomes (
  entry       TEXT NOT NULL,
  context     TEXT NOT NULL,
  step        TEXT NOT NULL,
  offered     INTEGER NOT NULL DEFAULT 0,
  fixed       INTEGER NOT NULL DEFAULT 0,
  assumed     INTEGER NOT NULL DEFAULT 0,
  failed      INTEGER NOT NULL DEFAULT 0,
  not_applied INTEGER NOT NULL DEFAULT 0,
  moved_on    INTEGER NOT NULL DEFAULT 0,
  skipped     INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (entry, context, step)
);

CREATE TABLE step_days (
  day      INTEGER NOT NULL,
  platform TEXT NOT NULL,
  server   TEXT NOT NULL,
  entry    TEXT NOT NULL,
  step     TEXT NOT NULL,
  offered  INTEGER NOT NULL DEFAULT 0,
  tried    INTEGER NOT NULL DEFAULT 0,
  fixed    INTEGER NOT NULL DEFAULT 0,
  assumed  INTEGER NOT NULL DEFAULT 0,
  moved_on INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, platform, server, entry, step)
);

CREATE TABLE step_pins (
  entry     TEXT NOT NULL,
  step      TEXT NOT NULL,
  place     INTEGER,
  pinned_by TEXT NOT NULL,
  pinned_at BIGINT NOT NULL,
  PRIMARY KEY (entry, step)
);

CREATE TABLE digests (
  platform TEXT NOT NULL,
  server   TEXT NOT NULL,
  week     INTEGER NOT NULL,
  sent_at  BIGINT NOT NULL,
  PRIMARY KEY (platform, server, week)
);

CREATE INDEX cases_unrecognized ON cases (fingerprint, created_at, platform, server) WHERE recognized = 0;
