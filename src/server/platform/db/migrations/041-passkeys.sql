-- Passkeys (WebAuthn credentials) an account signs in with. The server keeps the credential's id
-- and public key (base64url), never a secret: a copy of the table lets nobody sign in. `counter`
-- is the authenticator's signature counter (0 for synced passkeys, which do not count); `name` is
-- the owner's, for the account page, as is `last_used_at`.
CREATE TABLE passkeys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);

CREATE INDEX passkeys_account_id ON passkeys (account_id);

-- A WebAuthn challenge handed out and not answered yet. Found by the hash of a token that only the
-- page that asked holds; a challenge to add a passkey is also bound to the session that asked.
-- Taken (deleted) by the answer, right or wrong, so each works once; it lives a few minutes.
CREATE TABLE passkey_challenges (
  token_hash text PRIMARY KEY,
  challenge text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('add', 'sign-in')),
  session_hash text,
  expires_at timestamptz NOT NULL
);

CREATE INDEX passkey_challenges_expires_at ON passkey_challenges (expires_at);
