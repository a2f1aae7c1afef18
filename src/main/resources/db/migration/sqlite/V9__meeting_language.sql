-- Each meeting's language (issue 46), a BCP 47 primary subtag. Meetings imported before it have
-- none, so they are `und`: read with the rules they were read with until now, which keeps every
-- existing answer on them. Importing a meeting again detects its language.
ALTER TABLE meeting ADD COLUMN language TEXT NOT NULL DEFAULT 'und';
