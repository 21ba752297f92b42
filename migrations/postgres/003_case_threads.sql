-- migrations/003 for PostgreSQL.
ALTER TABLE cases ADD COLUMN thread TEXT;
