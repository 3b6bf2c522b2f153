-- Which factors each session was made with ('password', 'email-code', 'totp', 'recovery-code',
-- 'trusted-browser', 'passkey'): the console asks for a second one. Sessions made before this
-- column were all made with a password (or a mailed code, which counts no more).
ALTER TABLE sessions ADD COLUMN factors text[] NOT NULL DEFAULT '{password}';

-- An authenticator app (TOTP, RFC 6238): one per account. The secret is kept encrypted with a key
-- derived from the server secret, since it must be read back to check a code. It is pending until
-- a first code confirms it. `last_step` is the time step of the last code accepted: a code of that
-- step or an earlier one is refused, so a code works once.
CREATE TABLE account_totp (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  secret text NOT NULL,
  confirmed_at timestamptz,
  last_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Ten single-use recovery codes per account with a second factor, kept as keyed hashes. A new set
-- replaces the old one.
CREATE TABLE recovery_codes (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (account_id, code_hash)
);

-- A sign-in whose password was right and whose second factor is still to come. Found by the hash of
-- a token only the browser that gave the password holds; it lives a few minutes and allows a few tries.
CREATE TABLE pending_sign_ins (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL
);

CREATE INDEX pending_sign_ins_expires_at ON pending_sign_ins (expires_at);

-- Browsers whose owner asked not to be asked for the second factor there for a while: the cookie
-- holds a random token, the database its hash. The label ("Firefox on Windows") is for the account page.
CREATE TABLE trusted_browsers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  label text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

CREATE INDEX trusted_browsers_account_id ON trusted_browsers (account_id);
CREATE INDEX trusted_browsers_expires_at ON trusted_browsers (expires_at);
