-- A busy day's page views and leaves, copied once by the roll-up job with the share of visitors each
-- falls in, so that each share's statement reads its own rows rather than the whole day again
-- (decision 266). run tells apart two roll-ups under way at once (two instances); a run's rows are
-- removed as its shares are read. Nothing here needs keeping: a crash may empty the table.
CREATE UNLOGGED TABLE analytics_rollup_scratch (
  run bigint NOT NULL,
  share integer NOT NULL,
  copied_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  id bigint NOT NULL,
  event text NOT NULL,
  distinct_id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  path text,
  language text,
  browser_language text,
  referrer_host text,
  utm_source text,
  utm_campaign text,
  device text,
  browser text,
  os text,
  country text
);
CREATE INDEX analytics_rollup_scratch_share ON analytics_rollup_scratch (run, share);
