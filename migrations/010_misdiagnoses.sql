-- "That's not my problem": the entry a user said was wrong for their case (the first such, NULL
-- when none), so stats can tell how often each diagnosis misses. The case's `entry` stays what it
-- was opened as until a moderator relabels it.
ALTER TABLE cases ADD COLUMN misdiagnosed TEXT;
CREATE INDEX cases_misdiagnosed ON cases (misdiagnosed, created_at, platform, server) WHERE misdiagnosed IS NOT NULL;

-- The same count for deleted cases, per day of the case's creation, as the rest of the archive (006).
CREATE TABLE archived_misdiagnoses (
  day      INTEGER NOT NULL,
  platform TEXT NOT NULL,
  server   TEXT NOT NULL,
  entry    TEXT NOT NULL,
  cases    INTEGER NOT NULL,
  PRIMARY KEY (day, platform, server, entry)
) WITHOUT ROWID;
