-- First-party analytics, when no PostHog host is configured: the few fields of each event that the
-- report needs (see docs/decisions), nothing more. uuid is posthog-js's event id; a batch sent twice
-- (a retry after a lost answer) is stored once.
CREATE TABLE analytics_events (
  id bigserial PRIMARY KEY,
  uuid text UNIQUE,
  event text NOT NULL,
  distinct_id text NOT NULL,
  path text,
  language text,
  occurred_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT statement_timestamp()
);

CREATE INDEX analytics_events_occurred_at ON analytics_events (occurred_at);
