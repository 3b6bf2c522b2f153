-- When the account was last signed in to: an account unused for the retention period is deleted.
ALTER TABLE accounts ADD COLUMN last_active_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX accounts_last_active_at ON accounts (last_active_at);
