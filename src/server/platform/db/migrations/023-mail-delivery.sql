-- What the console says of an answer's or an invitation's mail, as the jobs report it: waiting
-- (its job is there), sent through SMTP, or kept in the outbox because no SMTP_URL is set.
ALTER TABLE contact_replies ADD COLUMN kept boolean NOT NULL DEFAULT false;

-- The invitation mailed to someone added to the staff who has no password yet; it goes with the account.
CREATE TABLE staff_invitations (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  queued_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  sent_at timestamptz,
  kept boolean NOT NULL DEFAULT false
);
