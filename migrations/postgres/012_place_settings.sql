-- migrations/012 for PostgreSQL.
CREATE TABLE place_settings (
  platform   TEXT NOT NULL,
  place      TEXT NOT NULL,
  settings   TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (platform, place)
);
