-- Where a chat case lives once the bot has opened a thread for it (Discord thread id, Slack
-- thread_ts), so later messages (idle notices, answers after a restart) land in the same place.
ALTER TABLE cases ADD COLUMN thread TEXT;
