-- Core records. Date-times are stored as fixed-width RFC 3339 UTC text
-- (yyyy-MM-ddTHH:mm:ssZ) so that text order is time order.

CREATE TABLE workspace (
  id    INTEGER PRIMARY KEY,
  slug  TEXT NOT NULL UNIQUE,
  name  TEXT NOT NULL
);

CREATE TABLE workspace_domain (
  workspace_id INTEGER NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
  domain       TEXT NOT NULL,
  PRIMARY KEY (workspace_id, domain)
) WITHOUT ROWID;

CREATE TABLE app_user (
  workspace_id INTEGER NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
  email        TEXT NOT NULL COLLATE NOCASE,
  name         TEXT,
  PRIMARY KEY (workspace_id, email)
) WITHOUT ROWID;

CREATE TABLE company (
  id           TEXT PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
  name         TEXT NOT NULL
);
CREATE INDEX company_workspace ON company(workspace_id);

CREATE TABLE company_domain (
  company_id TEXT NOT NULL REFERENCES company(id) ON DELETE CASCADE,
  domain     TEXT NOT NULL,
  PRIMARY KEY (company_id, domain)
) WITHOUT ROWID;
CREATE INDEX company_domain_by_domain ON company_domain(domain, company_id);

CREATE TABLE meeting (
  id              TEXT PRIMARY KEY,
  workspace_id    INTEGER NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
  title           TEXT NOT NULL,
  title_folded    TEXT NOT NULL,          -- lower case, accents removed: the `q` filter of the list
  platform        TEXT NOT NULL,
  source          TEXT NOT NULL,
  status          TEXT NOT NULL,
  starts_at       TEXT,
  ends_at         TEXT,
  join_url        TEXT,
  organizer_email TEXT,
  created_at      TEXT NOT NULL,
  template_id     TEXT,
  sort_at         TEXT NOT NULL           -- coalesce(starts_at, created_at): the list's time axis
);
CREATE INDEX meeting_by_sort_at    ON meeting(workspace_id, sort_at, id);
CREATE INDEX meeting_by_created_at ON meeting(workspace_id, created_at, id);
CREATE INDEX meeting_by_title      ON meeting(workspace_id, title_folded, id);

-- "visible_to": the users who see the meeting in the app (personal keys).
CREATE TABLE meeting_viewer (
  email      TEXT NOT NULL COLLATE NOCASE,
  meeting_id TEXT NOT NULL REFERENCES meeting(id) ON DELETE CASCADE,
  PRIMARY KEY (email, meeting_id)
) WITHOUT ROWID;
CREATE INDEX meeting_viewer_by_meeting ON meeting_viewer(meeting_id);

CREATE TABLE participant (
  meeting_id       TEXT NOT NULL REFERENCES meeting(id) ON DELETE CASCADE,
  position         INTEGER NOT NULL,
  display_name     TEXT NOT NULL,
  email            TEXT,
  domain           TEXT,                  -- lower-cased part after '@'
  source           TEXT NOT NULL,
  attended         INTEGER NOT NULL,
  approx_joined_at TEXT,
  approx_left_at   TEXT,
  PRIMARY KEY (meeting_id, position)
) WITHOUT ROWID;
CREATE INDEX participant_by_domain ON participant(domain, meeting_id);

CREATE TABLE protocol (
  id           TEXT PRIMARY KEY,
  meeting_id   TEXT NOT NULL REFERENCES meeting(id) ON DELETE CASCADE,
  tldr         TEXT,
  content_md   TEXT NOT NULL,
  generated_at TEXT NOT NULL,
  edited_at    TEXT,
  is_current   INTEGER NOT NULL            -- 1 for the meeting's most recent minutes
);
CREATE INDEX protocol_by_meeting ON protocol(meeting_id, is_current);

CREATE TABLE transcript_segment (
  meeting_id    TEXT NOT NULL REFERENCES meeting(id) ON DELETE CASCADE,
  idx           INTEGER NOT NULL,
  speaker_name  TEXT NOT NULL,
  speaker_email TEXT,
  start_ms      INTEGER NOT NULL,
  end_ms        INTEGER,
  text          TEXT NOT NULL,
  PRIMARY KEY (meeting_id, idx)
) WITHOUT ROWID;

CREATE TABLE api_key (
  id           TEXT PRIMARY KEY,           -- public handle, shown by `keys list`
  workspace_id INTEGER NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
  user_email   TEXT COLLATE NOCASE,        -- set for a personal key
  name         TEXT,
  scopes       TEXT NOT NULL,              -- comma-separated
  secret_hash  BLOB NOT NULL UNIQUE,       -- SHA-256 of the secret; the secret itself is never stored
  created_at   TEXT NOT NULL,
  revoked_at   TEXT
);
