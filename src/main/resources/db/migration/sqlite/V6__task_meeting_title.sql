-- Each task carries its meeting's title, as it carries its start (meeting_starts_at): a page of
-- the cross-meeting list then reads its rows from action_item alone. Joining each row to its
-- meeting cost 40 % of the page's query on PostgreSQL (docs/BENCHMARKS.md, 2026-11-26). A meeting
-- is always replaced whole with its tasks (RecordWriter), so the copy never goes stale.
-- SQLite adds a NOT NULL column only with a default; every writer sets it.
ALTER TABLE action_item ADD COLUMN meeting_title TEXT NOT NULL DEFAULT '';
UPDATE action_item SET meeting_title = (SELECT m.title FROM meeting m WHERE m.id = action_item.meeting_id);
