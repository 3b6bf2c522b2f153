-- Texts edited in the console (decision 200). The release's texts in public/locales stay the base;
-- a row of site_texts is a published text that differs from it, site_text_drafts holds what an
-- editor saved and has not published, site_text_history every publication of a text.
CREATE TABLE site_texts (
  language text NOT NULL,
  namespace text NOT NULL,
  key text NOT NULL,
  value text NOT NULL,
  -- The English text this one was written against: a translation needs review when it changes.
  source text NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (language, namespace, key)
);

CREATE TABLE site_text_drafts (
  language text NOT NULL,
  namespace text NOT NULL,
  key text NOT NULL,
  value text NOT NULL,
  source text NOT NULL,
  updated_by uuid REFERENCES accounts (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (language, namespace, key)
);

CREATE TABLE site_text_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  language text NOT NULL,
  namespace text NOT NULL,
  key text NOT NULL,
  -- NULL: the text went back to the release's own.
  value text,
  source text,
  published_by uuid REFERENCES accounts (id) ON DELETE SET NULL,
  -- The name at the time, which stays when the account goes.
  published_by_name text NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX site_text_history_text ON site_text_history (language, namespace, key, id DESC);
