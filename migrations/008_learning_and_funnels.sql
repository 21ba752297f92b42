-- What each step did, counted in the transaction that writes the conversation's records (src/learn/
-- outcomes.ts says which record counts what), so learning the step order and the per-entry stats
-- never read the event log. Both tables are counters that name no user and no case: forget and
-- retention leave them as they are, as they leave the archive (migration 006).

-- Per kb entry, setup (VRAM tier, OS, backend, dynamic VRAM; src/learn/context.ts) and step: what
-- the learner reads. '' is the setup of plans from before learning.
CREATE TABLE step_outcomes (
  entry       TEXT NOT NULL,
  context     TEXT NOT NULL,
  step        TEXT NOT NULL,
  offered     INTEGER NOT NULL DEFAULT 0,
  fixed       INTEGER NOT NULL DEFAULT 0,  -- the user confirmed it worked
  assumed     INTEGER NOT NULL DEFAULT 0,  -- the next log was no longer an OOM
  failed      INTEGER NOT NULL DEFAULT 0,  -- the same failure after applying it
  not_applied INTEGER NOT NULL DEFAULT 0,  -- "couldn't apply it", said or seen in a log
  moved_on    INTEGER NOT NULL DEFAULT 0,  -- a different memory failure after it
  skipped     INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (entry, context, step)
) WITHOUT ROWID;

-- Per day of the case's creation (days since 1970, UTC, as the archive), platform, server, entry
-- and step: the funnel stats show (offered, tried, fixed), scoped and by period like the rest.
CREATE TABLE step_days (
  day      INTEGER NOT NULL,
  platform TEXT NOT NULL,
  server   TEXT NOT NULL,             -- '' when none (the terminal)
  entry    TEXT NOT NULL,
  step     TEXT NOT NULL,
  offered  INTEGER NOT NULL DEFAULT 0,
  tried    INTEGER NOT NULL DEFAULT 0, -- worked, or still failing after applying it
  fixed    INTEGER NOT NULL DEFAULT 0,
  assumed  INTEGER NOT NULL DEFAULT 0,
  moved_on INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, platform, server, entry, step)
) WITHOUT ROWID;

-- A moderator's pin: the step keeps a place in its entry's order whatever the outcomes say
-- (`place` 0-based; NULL keeps the kb's place).
CREATE TABLE step_pins (
  entry     TEXT NOT NULL,
  step      TEXT NOT NULL,
  place     INTEGER,
  pinned_by TEXT NOT NULL,
  pinned_at INTEGER NOT NULL,
  PRIMARY KEY (entry, step)
) WITHOUT ROWID;

-- The weekly digest posted to a moderators' channel: one row per place and week, written before
-- posting, so two processes or a restart never post the same week twice.
CREATE TABLE digests (
  platform TEXT NOT NULL,
  server   TEXT NOT NULL,
  week     INTEGER NOT NULL,            -- weeks since 1970-01-05 (a Monday), UTC
  sent_at  INTEGER NOT NULL,
  PRIMARY KEY (platform, server, week)
) WITHOUT ROWID;

-- Errors the kb did not recognize, per fingerprint and week, in a scope: read without the wide rows.
CREATE INDEX cases_unrecognized ON cases (fingerprint, created_at, platform, server) WHERE recognized = 0;

-- Backfill from the event log of databases that predate this migration: each step event counted
-- for the plan in effect when it happened (the last plan-carrying event before it), under the
-- setup '' (their plans were not ordered for a setup). Live cases only: the archive's counters
-- never knew the entry a step belonged to.
CREATE TEMP TABLE backfill AS
  SELECT c.platform, COALESCE(c.server, '') AS server, c.created_at / 86400000 AS day, e.type, e.step,
    json_extract(e.data, '$.answer') AS answer, json_extract(e.data, '$.reason') AS reason, json_extract(e.data, '$.resolution') AS resolution,
    (SELECT json_extract(p.data, '$.plan.entry') FROM events p
      WHERE p.case_id = e.case_id AND p.seq < e.seq AND p.type IN ('opened', 'plan_switched', 'replanned', 'clarified')
      ORDER BY p.seq DESC LIMIT 1) AS entry
  FROM events e JOIN cases c ON c.id = e.case_id
  WHERE e.type IN ('offered', 'answered', 'resolved', 'plan_switched') AND e.step IS NOT NULL;

INSERT INTO step_outcomes (entry, context, step, offered, fixed, assumed, failed, not_applied, moved_on, skipped)
  SELECT entry, '', step,
    SUM(type = 'offered'), SUM(type = 'resolved' AND resolution = 'confirmed'), SUM(type = 'resolved' AND resolution = 'assumed'),
    SUM(type = 'answered' AND answer = 'failed' AND reason = 'same'), SUM(type = 'answered' AND reason = 'could_not_apply'),
    SUM(type = 'plan_switched'), SUM(type = 'answered' AND answer = 'skipped')
  FROM backfill WHERE entry IS NOT NULL GROUP BY entry, step;

INSERT INTO step_days (day, platform, server, entry, step, offered, tried, fixed, assumed, moved_on)
  SELECT day, platform, server, entry, step,
    SUM(type = 'offered'), SUM(type = 'answered' AND answer IN ('worked', 'failed') AND COALESCE(reason, '') <> 'could_not_apply'),
    SUM(type = 'resolved' AND resolution = 'confirmed'), SUM(type = 'resolved' AND resolution = 'assumed'), SUM(type = 'plan_switched')
  FROM backfill WHERE entry IS NOT NULL GROUP BY day, platform, server, entry, step;

DROP TABLE backfill;
