-- Operators and admins (accounts.role, migration 020) answer chats.

-- One sequence orders everything that happens in the chat: a message's id and a conversation's
-- last change both come from it, so a stream that has seen position N asks for "> N" and gets
-- exactly what it missed. Writers take the chat's advisory lock before drawing from it, so
-- positions become visible in order (see features/chat/chat-queries.ts).
CREATE SEQUENCE chat_seq;

CREATE TABLE chat_conversations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- Position of the last change (a message, a status, a read marker), from chat_seq.
  seq bigint NOT NULL DEFAULT nextval('chat_seq'),
  -- The hash of the random token in the visitor's cookie; the token itself is only in the cookie.
  -- NULL once the visitor ended the conversation.
  visitor_token_hash text UNIQUE,
  -- A signed-in visitor's conversation belongs to their account and goes with it.
  account_id uuid REFERENCES accounts (id) ON DELETE CASCADE,
  -- A keyed hash of the address it was started from, so that a block can cover the next one too.
  client_hash text NOT NULL,
  language text NOT NULL,
  -- The page the visitor last wrote from.
  page text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  -- Where replies the visitor did not read go; an account's own address when none is given.
  visitor_email text,
  blocked boolean NOT NULL DEFAULT false,
  -- Read markers: the last message the visitor has seen, and the last the team has read.
  visitor_read_id bigint NOT NULL DEFAULT 0,
  operator_read_id bigint NOT NULL DEFAULT 0,
  -- The last operator message already mailed to the visitor, so that each is mailed once.
  mailed_up_to bigint NOT NULL DEFAULT 0,
  visitor_ended_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_message_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX chat_conversations_seq ON chat_conversations (seq);
CREATE INDEX chat_conversations_account ON chat_conversations (account_id) WHERE account_id IS NOT NULL;
CREATE INDEX chat_conversations_last_message_at ON chat_conversations (last_message_at);

CREATE TABLE chat_messages (
  id bigint PRIMARY KEY DEFAULT nextval('chat_seq'),
  conversation_id bigint NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
  author text NOT NULL CHECK (author IN ('visitor', 'operator', 'system')),
  -- Who of the team wrote it; kept when their account goes, without the name.
  operator_id uuid REFERENCES accounts (id) ON DELETE SET NULL,
  body text NOT NULL,
  -- The browser's own id for it: a retried send is stored once.
  client_message_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT chat_messages_client_id UNIQUE (conversation_id, client_message_id)
);

CREATE INDEX chat_messages_conversation ON chat_messages (conversation_id, id);
CREATE INDEX chat_messages_created_at ON chat_messages (created_at);
-- A first message sent again after its answer was lost finds the conversation it started.
CREATE INDEX chat_messages_visitor_client_id ON chat_messages (client_message_id) WHERE author = 'visitor';

-- One row per open console stream: an operator is online while a row of theirs is fresh. A row
-- left by an instance that died stops counting after a minute and is pruned.
CREATE TABLE chat_presence (
  stream_id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  seen_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX chat_presence_seen_at ON chat_presence (seen_at);

-- Blocked visitors: a keyed hash of a client address, or an account, for a while.
CREATE TABLE chat_blocks (
  subject text PRIMARY KEY,
  conversation_id bigint REFERENCES chat_conversations (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);

CREATE INDEX chat_blocks_expires_at ON chat_blocks (expires_at);
