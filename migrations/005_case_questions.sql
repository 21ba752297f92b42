-- The question the bot asks before the first step when the log cannot tell ("Which node was
-- running?", "NVIDIA or AMD?"): one row per case and question, written with the events like
-- case_steps, so stats show how often the bot had to ask and what people answered without
-- reading the event log. No backfill: no earlier database holds such a question.
CREATE TABLE case_questions (
  case_id    TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
  question   TEXT NOT NULL,              -- stage | vendor
  created_at INTEGER NOT NULL,           -- the case's, so stats filter by period without a join
  choice     TEXT,                       -- the answer (unknown = "I don't know"); NULL while unanswered
  typed      INTEGER NOT NULL DEFAULT 0, -- answered in words (a node's name, "AMD") instead of a button
  PRIMARY KEY (case_id, question)
) WITHOUT ROWID;

CREATE INDEX case_questions_period ON case_questions (created_at, question, choice, typed);
CREATE INDEX case_questions_all ON case_questions (question, choice, typed);
