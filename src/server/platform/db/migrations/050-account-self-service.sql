-- The account page lists the account's sessions and ends any one of them. A session is found by the
-- hash of its token, which must not leave the server: each gets an id of its own to be named by.
-- Its label is the browser and system read from the User-Agent at sign-in ("Firefox, Windows"),
-- not the User-Agent itself; no client address is kept.
ALTER TABLE sessions ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE sessions ADD CONSTRAINT sessions_id_unique UNIQUE (id);
ALTER TABLE sessions ADD COLUMN label text NOT NULL DEFAULT '';

-- A new email address waiting for the code mailed to it; the account keeps its address until then.
-- One per account: asking again replaces it. Only a keyed hash of the code is kept.
CREATE TABLE email_changes (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  new_email text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  expires_at timestamptz NOT NULL
);

CREATE INDEX email_changes_expires_at ON email_changes (expires_at);

-- After a change, the old address gets a link that puts it back for a while: someone who took over
-- a session must not keep the account by changing its address. The link's token is random; only its
-- hash is kept. Used once, then deleted.
CREATE TABLE email_change_undos (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  old_email text NOT NULL,
  new_email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  expires_at timestamptz NOT NULL
);

CREATE INDEX email_change_undos_account_id ON email_change_undos (account_id);
CREATE INDEX email_change_undos_expires_at ON email_change_undos (expires_at);

-- Downloads of the account's data on the current day (UTC), to allow a few a day. Kept on the account
-- rather than as a rate-limit counter, which lives two hours at most (the privacy policy says so).
ALTER TABLE accounts ADD COLUMN data_export_day date;
ALTER TABLE accounts ADD COLUMN data_exports integer NOT NULL DEFAULT 0;
