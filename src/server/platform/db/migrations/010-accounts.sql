-- Accounts. Email (lower case) and phone (+digits) are unique, so that concurrent registrations
-- with the same address or number leave exactly one account: the database decides, not a check
-- made earlier by one of several server instances.
CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  password_hash text NOT NULL,
  -- The language of the pages the visitor registered on: mail goes out in it when no page says otherwise.
  language text NOT NULL,
  verified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT accounts_email_unique UNIQUE (email),
  CONSTRAINT accounts_phone_unique UNIQUE (phone)
);

-- Unverified accounts nobody confirmed are removed after a while, so an address typed by mistake
-- (or by someone else) does not block its owner for ever.
CREATE INDEX accounts_unverified_created_at ON accounts (created_at) WHERE verified_at IS NULL;

-- One live code per account and purpose; a new one replaces the old. Only a keyed hash is kept.
CREATE TABLE account_codes (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('verify', 'reset')),
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, purpose)
);

-- Sessions are found by the hash of their token; the token itself exists only in the visitor's cookie.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

CREATE INDEX sessions_account_id ON sessions (account_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

-- Mail written while no SMTP server is configured (the embedded default), for the operator to read.
CREATE TABLE mail_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  recipient text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX mail_outbox_recipient ON mail_outbox (recipient);
CREATE INDEX mail_outbox_created_at ON mail_outbox (created_at);
