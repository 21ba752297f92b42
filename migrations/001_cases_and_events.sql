-- One row per troubleshooting case; the conversation itself is the append-only event log below.
CREATE TABLE cases (
  id             TEXT PRIMARY KEY,             -- short random id, also used in button ids
  platform       TEXT NOT NULL,                -- terminal | discord | slack
  server         TEXT,                         -- Discord guild / Slack workspace
  channel        TEXT,
  user_id        TEXT NOT NULL,                -- the case owner
  created_at     INTEGER NOT NULL,             -- ms since epoch
  updated_at     INTEGER NOT NULL,
  category       TEXT NOT NULL,
  entry          TEXT NOT NULL,
  kb_version     TEXT NOT NULL,
  facts          TEXT NOT NULL,                -- JSON of the extracted facts
  paste          TEXT NOT NULL,                -- the pasted text, redacted
  status         TEXT NOT NULL DEFAULT 'open', -- open | resolved | escalated | abandoned | cancelled
  resolving_step TEXT,
  state          TEXT NOT NULL                 -- JSON snapshot of the conversation state (rebuildable from events)
);

CREATE TABLE events (
  case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
  seq     INTEGER NOT NULL,
  at      INTEGER NOT NULL,
  type    TEXT NOT NULL,
  step    TEXT,
  data    TEXT NOT NULL,                       -- JSON of the whole event
  PRIMARY KEY (case_id, seq)
) WITHOUT ROWID;

CREATE INDEX cases_user ON cases (platform, user_id, updated_at);
