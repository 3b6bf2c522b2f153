-- What a team needs to run its support on the chat every day: internal notes, assignment, saved
-- replies per language, search over chats and contact messages, ratings, and links that open a
-- conversation from a mail in another browser.

-- Internal notes are messages of the thread with their own author: the visitor's reads leave them
-- out (features/chat/chat-queries.ts, VISIBLE_TO_VISITOR).
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_author_check;
ALTER TABLE chat_messages ADD CONSTRAINT chat_messages_author_check
  CHECK (author IN ('visitor', 'operator', 'system', 'note'));

-- Who of the team looks after the conversation; nobody until someone takes it.
ALTER TABLE chat_conversations ADD COLUMN assignee_id uuid REFERENCES accounts (id) ON DELETE SET NULL;
CREATE INDEX chat_conversations_assignee ON chat_conversations (assignee_id, last_message_at);

-- Saved replies: a short name the operator types after "/", and a text per language.
CREATE TABLE chat_saved_replies (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  shortcut text NOT NULL UNIQUE,
  -- {"en": "…", "th": "…"}: the languages it has a text in.
  texts jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT statement_timestamp()
);

-- The visitor's rating of a closed conversation, one per conversation (a second one replaces it).
CREATE TABLE chat_ratings (
  conversation_id bigint PRIMARY KEY REFERENCES chat_conversations (id) ON DELETE CASCADE,
  score smallint NOT NULL CHECK (score BETWEEN 1 AND 5),
  comment text,
  created_at timestamptz NOT NULL DEFAULT statement_timestamp()
);

CREATE INDEX chat_ratings_created_at ON chat_ratings (created_at);

-- Further visitor tokens of a conversation: a link mailed to the visitor opens it in the browser
-- the mail is read in, without taking it from the first browser. Only hashes are kept, as for
-- chat_conversations.visitor_token_hash.
CREATE TABLE chat_visitor_tokens (
  token_hash text PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT statement_timestamp()
);

CREATE INDEX chat_visitor_tokens_conversation ON chat_visitor_tokens (conversation_id);

-- Full-text search with each language's stemming where PostgreSQL has one; Thai, written without
-- spaces between words, is matched as plain text instead (features/chat/search-queries.ts).
CREATE FUNCTION site_search_config(language text) RETURNS regconfig
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (CASE language
    WHEN 'en' THEN 'english' WHEN 'it' THEN 'italian' WHEN 'fr' THEN 'french'
    WHEN 'de' THEN 'german' WHEN 'nl' THEN 'dutch' ELSE 'simple' END)::regconfig $$;

-- A message is in its conversation's language when it is written.
ALTER TABLE chat_messages ADD COLUMN language text;
ALTER TABLE chat_messages ADD COLUMN search tsvector;

CREATE FUNCTION chat_messages_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.language := (SELECT language FROM chat_conversations WHERE id = NEW.conversation_id);
  NEW.search := to_tsvector(site_search_config(NEW.language), NEW.body);
  RETURN NEW;
END $$;

CREATE TRIGGER chat_messages_search BEFORE INSERT ON chat_messages
  FOR EACH ROW EXECUTE FUNCTION chat_messages_search();

UPDATE chat_messages m SET language = c.language, search = to_tsvector(site_search_config(c.language), m.body)
  FROM chat_conversations c WHERE c.id = m.conversation_id;

CREATE INDEX chat_messages_search ON chat_messages USING gin (search);
CREATE INDEX chat_messages_thai ON chat_messages (id) WHERE language = 'th';

ALTER TABLE contact_messages ADD COLUMN search tsvector
  GENERATED ALWAYS AS (to_tsvector(site_search_config(language), subject || ' ' || body)) STORED;
CREATE INDEX contact_messages_search ON contact_messages USING gin (search);
CREATE INDEX contact_messages_thai ON contact_messages (created_at) WHERE language = 'th';
CREATE INDEX contact_messages_email ON contact_messages (lower(email));
