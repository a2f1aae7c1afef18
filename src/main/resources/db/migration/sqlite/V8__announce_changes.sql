-- As postgresql/V8__announce_changes.sql, which tells listening cluster nodes of changes. A
-- SQLite database has one node, which reads keys and the data version per request: nothing to add.
SELECT 1;
