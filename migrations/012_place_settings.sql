-- What each place's admins set for the bot (a Discord server, a Slack workspace): helpers, watched
-- and opted-out channels, the digest channel, the default language, as one JSON document checked
-- when read (src/settings/place.ts). Settings name channels and roles, never a person.
CREATE TABLE place_settings (
  platform   TEXT NOT NULL,
  place      TEXT NOT NULL,
  settings   TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (platform, place)
) WITHOUT ROWID;
