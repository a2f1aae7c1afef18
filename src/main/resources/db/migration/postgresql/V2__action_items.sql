-- As sqlite/V2__action_items.sql. A deployment without it answers 503 on the task endpoints.
CREATE TABLE action_item (
  id                TEXT COLLATE "C" PRIMARY KEY,
  rid               BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
  protocol_id       TEXT COLLATE "C" NOT NULL REFERENCES protocol(id) ON DELETE CASCADE,
  meeting_id        TEXT COLLATE "C" NOT NULL REFERENCES meeting(id) ON DELETE CASCADE,
  workspace_id      BIGINT NOT NULL,
  position          INTEGER NOT NULL,
  task              TEXT COLLATE "C" NOT NULL,
  owner_name        TEXT COLLATE "C",
  due               TEXT COLLATE "C",
  due_key           TEXT COLLATE "C" NOT NULL,   -- due, or '~' (sorts after every date) when there is none
  verdict           TEXT COLLATE "C" NOT NULL,
  status            TEXT COLLATE "C" NOT NULL,
  is_current        INTEGER NOT NULL,
  meeting_starts_at TEXT COLLATE "C"
);
-- NULLS LAST: SQLite's descending order puts NULL last, PostgreSQL's first unless told.
CREATE INDEX action_item_order ON action_item(workspace_id, is_current, due_key, meeting_starts_at DESC NULLS LAST, id)
  INCLUDE (status, verdict, due, meeting_id, rid);
CREATE INDEX action_item_by_protocol ON action_item(protocol_id, due_key, position);
CREATE INDEX action_item_by_meeting ON action_item(meeting_id, is_current, due_key, meeting_starts_at DESC NULLS LAST, id);
