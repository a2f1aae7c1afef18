-- As sqlite/V7__webhooks.sql.
CREATE TABLE webhook (
  id                TEXT COLLATE "C" PRIMARY KEY,
  key_id            TEXT COLLATE "C" NOT NULL REFERENCES api_key(id) ON DELETE CASCADE,
  url               TEXT NOT NULL,
  name              TEXT,
  secret            TEXT NOT NULL,
  state             TEXT COLLATE "C" NOT NULL,
  delivered_through BIGINT NOT NULL,
  attempts          INTEGER NOT NULL,
  next_attempt_ms   BIGINT NOT NULL,
  failing_since     TEXT COLLATE "C",
  last_delivery_at  TEXT COLLATE "C",
  last_error        TEXT,
  created_at        TEXT COLLATE "C" NOT NULL
);

CREATE TABLE webhook_lease (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  holder   TEXT NOT NULL,
  until_ms BIGINT NOT NULL
);
INSERT INTO webhook_lease(id, holder, until_ms) VALUES (1, '', 0);
