-- Confirmed outcomes (the user said it worked) are kept apart from assumed ones (a new log was
-- no longer an OOM), and an error fingerprint lets moderators see what the kb does not know yet.
ALTER TABLE cases ADD COLUMN resolution TEXT;   -- confirmed | assumed, when status = resolved
ALTER TABLE cases ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
ALTER TABLE cases ADD COLUMN recognized INTEGER NOT NULL DEFAULT 1;  -- 0 when no specific kb entry matched

CREATE INDEX cases_created ON cases (created_at);
CREATE INDEX cases_open ON cases (status, updated_at);
CREATE INDEX events_type ON events (type, step);
