-- As sqlite/V6. NOT NULL after the copy: a writer that leaves the title out (the code before
-- this migration) fails its import whole instead of landing tasks without one.
ALTER TABLE action_item ADD COLUMN meeting_title TEXT COLLATE "C";
UPDATE action_item a SET meeting_title = m.title FROM meeting m WHERE m.id = a.meeting_id;
ALTER TABLE action_item ALTER COLUMN meeting_title SET NOT NULL;
