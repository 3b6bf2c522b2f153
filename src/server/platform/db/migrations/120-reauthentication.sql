-- When the session's owner last proved again that they are there by signing in anew at an identity
-- provider linked to the account: an account without a password confirms its sensitive changes so.
-- Good for a few minutes, and spent by the change it allowed.
ALTER TABLE sessions ADD COLUMN reauthenticated_at timestamptz;

-- A provider sign-in started to re-authenticate a session (by the hash of its token) rather than to
-- sign in or link; its start time is what the provider's `auth_time` must not precede.
ALTER TABLE oidc_sign_ins ADD COLUMN reauthenticate_session text;
ALTER TABLE oidc_sign_ins ADD COLUMN created_at timestamptz NOT NULL DEFAULT statement_timestamp();
-- Where on the account page the visitor asked for it, to go back there.
ALTER TABLE oidc_sign_ins ADD COLUMN return_to text;
