-- As sqlite/V5__change_feed.sql.
CREATE TABLE change_feed (
  workspace_id BIGINT NOT NULL,
  viewer       TEXT COLLATE "C" NOT NULL,   -- '' or an email folded by the writer (Emails.key)
  seq          BIGINT NOT NULL,
  meeting_id   TEXT COLLATE "C" NOT NULL,
  change       TEXT COLLATE "C" NOT NULL,
  changed_at   TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (workspace_id, viewer, seq)
);
CREATE INDEX change_feed_by_seq ON change_feed(seq);

-- The cursor key comes from gen_random_uuid() (PostgreSQL 13+, a strong random source; two give
-- 244 random bits), since random() is not one and pgcrypto may not be installed.
CREATE TABLE change_state (
  id             INTEGER PRIMARY KEY CHECK (id = 1),
  pruned_through BIGINT NOT NULL,
  cursor_key     BYTEA NOT NULL,
  imported       INTEGER NOT NULL
);
INSERT INTO change_state(id, pruned_through, cursor_key, imported)
  VALUES (1, 0, decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'),
          (SELECT CASE WHEN EXISTS (SELECT 1 FROM workspace) THEN 1 ELSE 0 END));
