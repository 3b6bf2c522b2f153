-- An account made by signing in with an identity provider has no password until its owner sets one
-- ("forgot password"): it signs in with the provider only.
ALTER TABLE accounts ALTER COLUMN password_hash DROP NOT NULL;

-- Identities at OpenID Connect providers that sign in to an account: the provider's issuer and its
-- subject name one person there; the email the provider gave is kept to show which one it is. One
-- identity per provider and account.
CREATE TABLE account_identities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  issuer text NOT NULL,
  subject text NOT NULL,
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  CONSTRAINT account_identities_subject_unique UNIQUE (issuer, subject),
  CONSTRAINT account_identities_one_per_issuer UNIQUE (account_id, issuer)
);

-- A sign-in sent to a provider and not yet back: found by the hash of the token in the browser's
-- cookie, so that only the browser that left can come back with it (its state must match too). It
-- holds the PKCE verifier and the nonce for the answer's checks, and, when an account asked to link
-- an identity, that account. Minutes long; the callback deletes it.
CREATE TABLE oidc_sign_ins (
  token_hash text PRIMARY KEY,
  provider text NOT NULL,
  state text NOT NULL,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  language text NOT NULL,
  link_account_id uuid REFERENCES accounts (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);

CREATE INDEX oidc_sign_ins_expires_at ON oidc_sign_ins (expires_at);

-- What the first step of a pending sign-in was: a password, or a provider that reported no second
-- factor. The session made at the second step records it.
ALTER TABLE pending_sign_ins ADD COLUMN first_factor text NOT NULL DEFAULT 'password';
