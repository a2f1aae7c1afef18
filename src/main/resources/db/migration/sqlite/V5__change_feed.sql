-- The change feed (GET /api/v1/changes, decisions.md "Change feed"). A meeting's audiences are
-- its workspace's keys (viewer '') and each user in its visible_to (viewer: the email as
-- meeting_viewer holds it, folded by the writer). For every meeting an import changes, the import
-- writes one row per audience that may learn of the change: 'upsert' for those who see the
-- meeting afterwards, 'delete' for those who saw it before and no longer do. seq is the
-- meeting's change_log number, so a feed page is one range of the primary key.
CREATE TABLE change_feed (
  workspace_id INTEGER NOT NULL,
  viewer       TEXT NOT NULL,
  seq          INTEGER NOT NULL,
  meeting_id   TEXT NOT NULL,
  change       TEXT NOT NULL,           -- 'upsert' or 'delete'
  changed_at   TEXT NOT NULL,
  PRIMARY KEY (workspace_id, viewer, seq)
) WITHOUT ROWID;
-- Pruning removes history by seq (ChangeHistory.prune).
CREATE INDEX change_feed_by_seq ON change_feed(seq);

-- One row. pruned_through: change_log numbers up to it are gone (changes.retention_days), so a
-- cursor or a search index that stopped before it must start over. cursor_key signs feed cursors:
-- every node of a cluster accepts every other node's, and a value that is not one of ours is
-- refused. imported: an import has run, so an empty database is one whose data was deleted,
-- not a new one that serve fills with the demo.
CREATE TABLE change_state (
  id             INTEGER PRIMARY KEY CHECK (id = 1),
  pruned_through INTEGER NOT NULL,
  cursor_key     BLOB NOT NULL,
  imported       INTEGER NOT NULL
);
INSERT INTO change_state(id, pruned_through, cursor_key, imported)
  VALUES (1, 0, randomblob(32), (SELECT count(*) > 0 FROM workspace));
