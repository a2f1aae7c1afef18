-- Webhooks (decisions.md "Push"), created with `webhooks create`. A webhook delivers its key's
-- change feed in order, one change at a time, so its whole delivery state is one row:
-- delivered_through is the last change_feed number it has handled (delivered, or passed over
-- because its receiver cannot have it); the change after it is retried until it is delivered.
-- A server killed mid-delivery sends that change again, with the same webhook-id.
CREATE TABLE webhook (
  id                TEXT PRIMARY KEY,
  key_id            TEXT NOT NULL REFERENCES api_key(id) ON DELETE CASCADE,
  url               TEXT NOT NULL,
  name              TEXT,
  secret            TEXT NOT NULL,            -- whsec_...: signing needs it as it is
  state             TEXT NOT NULL,            -- 'active', 'failing' or 'disabled'
  delivered_through INTEGER NOT NULL,
  attempts          INTEGER NOT NULL,         -- failed attempts at the next change
  next_attempt_ms   INTEGER NOT NULL,         -- epoch ms before which the next change waits (0: none)
  failing_since     TEXT,
  last_delivery_at  TEXT,
  last_error        TEXT,                     -- why the last attempt failed, or why it was disabled
  created_at        TEXT NOT NULL
);

-- One row: which server delivers (cluster mode: one node at a time), until when unless renewed.
CREATE TABLE webhook_lease (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  holder   TEXT NOT NULL,
  until_ms INTEGER NOT NULL
);
INSERT INTO webhook_lease(id, holder, until_ms) VALUES (1, '', 0);
