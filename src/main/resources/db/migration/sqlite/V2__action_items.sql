-- Tasks get their own migration: a deployment without it answers 503 on the task
-- endpoints (api-spec section 7) instead of failing.
CREATE TABLE action_item (
  id                TEXT PRIMARY KEY,
  protocol_id       TEXT NOT NULL REFERENCES protocol(id) ON DELETE CASCADE,
  meeting_id        TEXT NOT NULL REFERENCES meeting(id) ON DELETE CASCADE,
  workspace_id      INTEGER NOT NULL,
  position          INTEGER NOT NULL,      -- place of the task in its minutes
  task              TEXT NOT NULL,
  owner_name        TEXT,
  due               TEXT,
  due_key           TEXT NOT NULL,         -- due, or '~' (sorts after every date) when there is none
  verdict           TEXT NOT NULL,
  status            TEXT NOT NULL,
  is_current        INTEGER NOT NULL,      -- copied from its protocol
  meeting_starts_at TEXT                   -- copied from its meeting, for the cross-meeting order
);
-- The cross-meeting list: due ascending (no due last), meeting start descending, id. The
-- trailing columns make it covering for the server's in-memory task order (tasks/TaskIndex),
-- which then loads without a table lookup per task.
CREATE INDEX action_item_order ON action_item(workspace_id, is_current, due_key, meeting_starts_at DESC, id,
  status, verdict, due, meeting_id);
CREATE INDEX action_item_by_protocol ON action_item(protocol_id, due_key, position);
CREATE INDEX action_item_by_meeting ON action_item(meeting_id, is_current, due_key, meeting_starts_at DESC, id);
