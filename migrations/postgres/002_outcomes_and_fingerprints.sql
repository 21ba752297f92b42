-- migrations/002 for PostgreSQL.
ALTER TABLE cases ADD COLUMN resolution TEXT;
ALTER TABLE cases ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
ALTER TABLE cases ADD COLUMN recognized INTEGER NOT NULL DEFAULT 1;

CREATE INDEX cases_created ON cases (created_at);
CREATE INDEX cases_open ON cases (status, updated_at);
CREATE INDEX events_type ON events (type, step);
