-- Every import appends the meetings it touched; the search index applies entries in
-- sequence and records the last applied number in its own commit, so that it can
-- catch up after a crash.
CREATE TABLE change_log (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  meeting_id TEXT NOT NULL,
  changed_at TEXT NOT NULL
);
CREATE INDEX change_log_by_meeting ON change_log(meeting_id);
