-- Work done after the request that caused it (mail, clean-up), by whichever instance claims it
-- first. A job is inserted in the same transaction as what caused it, so it exists exactly when
-- that change does; it is deleted when done, or moved to its next run when it recurs.
CREATE TABLE jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}',
  -- A recurring job has one row for ever: its kind, so that every instance can ask for it at start.
  unique_key text UNIQUE,
  run_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  attempts integer NOT NULL DEFAULT 0,
  -- While an instance works on it; a crashed instance's claim lapses and another one takes it.
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT statement_timestamp()
);

CREATE INDEX jobs_run_at ON jobs (run_at);
