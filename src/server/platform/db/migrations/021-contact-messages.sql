-- What visitors write through the contact form. A message sent while signed in, or from the address
-- of a confirmed account, belongs to that account and is deleted with it; every other message is
-- deleted after the retention period (see common/retention.ts), counted from its last activity.
CREATE TABLE contact_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  -- The message or its latest reply: the retention period runs from here.
  last_activity_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  language text NOT NULL,
  -- The page of the site the form was sent from, when it said.
  page text,
  name text NOT NULL,
  email text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'new'
    CONSTRAINT contact_messages_status_known CHECK (status IN ('new', 'read', 'answered', 'archived', 'spam')),
  -- Why it was taken for spam when it arrived (honeypot, too fast, ...); null when it was not.
  spam_reason text,
  account_id uuid REFERENCES accounts (id) ON DELETE CASCADE
);

CREATE INDEX contact_messages_created_at ON contact_messages (created_at DESC, id DESC);
CREATE INDEX contact_messages_status ON contact_messages (status, created_at DESC);
CREATE INDEX contact_messages_last_activity_at ON contact_messages (last_activity_at);
CREATE INDEX contact_messages_account_id ON contact_messages (account_id) WHERE account_id IS NOT NULL;

-- Answers written in the console and mailed to the visitor by the jobs; the thread of a message.
CREATE TABLE contact_replies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  message_id uuid NOT NULL REFERENCES contact_messages (id) ON DELETE CASCADE,
  author_id uuid REFERENCES accounts (id) ON DELETE SET NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  -- When the mail server took it; null while it waits (or when it could not be delivered).
  sent_at timestamptz
);

CREATE INDEX contact_replies_message_id ON contact_replies (message_id, created_at);

-- Every staff action on a message: who, what, when. It names no visitor and holds none of the
-- message, so it may outlive a deleted message (the deletion is itself recorded); it is pruned
-- after the same retention period.
CREATE TABLE contact_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id uuid NOT NULL,
  actor_id uuid REFERENCES accounts (id) ON DELETE SET NULL,
  action text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT statement_timestamp()
);

CREATE INDEX contact_events_message_id ON contact_events (message_id, id);
CREATE INDEX contact_events_created_at ON contact_events (created_at);
