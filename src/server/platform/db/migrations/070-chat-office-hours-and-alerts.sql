-- The chat's settings for the whole team, one row: office hours (the weekly hours, holidays and the
-- time zone they are read in) and how long a visitor may wait unanswered before the operators on
-- duty are mailed. Admins change them in the console (features/chat/chat-settings-routes.ts).
CREATE TABLE chat_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  -- Off: the team counts as there whenever an operator has the console open, as before.
  hours_enabled boolean NOT NULL DEFAULT false,
  -- An IANA time zone name; the hours and holidays are wall-clock times and dates there.
  time_zone text NOT NULL DEFAULT 'UTC',
  -- Seven lists (Monday first) of {"from":"HH:MM","to":"HH:MM"}; "to" may be "24:00".
  weekly_hours jsonb NOT NULL DEFAULT '[[{"from":"09:00","to":"17:00"}],[{"from":"09:00","to":"17:00"}],[{"from":"09:00","to":"17:00"}],[{"from":"09:00","to":"17:00"}],[{"from":"09:00","to":"17:00"}],[],[]]',
  -- Days the team is away all day, as YYYY-MM-DD in the time zone.
  holidays text[] NOT NULL DEFAULT '{}',
  alert_after_seconds integer NOT NULL DEFAULT 300 CHECK (alert_after_seconds BETWEEN 60 AND 86400),
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO chat_settings DEFAULT VALUES;

-- What each operator chose for themselves: a sound while the console's tab is hidden.
CREATE TABLE chat_operator_settings (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  sound boolean NOT NULL DEFAULT false
);

-- When the operators on duty were mailed that this conversation's visitor waited: once per conversation.
ALTER TABLE chat_conversations ADD COLUMN waiting_alert_at timestamptz;
