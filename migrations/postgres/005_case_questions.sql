-- migrations/005 for PostgreSQL.
CREATE TABLE case_questions (
  case_id    TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
  question   TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  choice     TEXT,
  typed      INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (case_id, question)
);

CREATE INDEX case_questions_period ON case_questions (created_at, question, choice, typed);
CREATE INDEX case_questions_all ON case_questions (question, choice, typed);
