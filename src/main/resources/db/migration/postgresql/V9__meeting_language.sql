-- As sqlite/V8: meetings imported before are `und`, read as until now.
ALTER TABLE meeting ADD COLUMN language TEXT COLLATE "C" NOT NULL DEFAULT 'und';
