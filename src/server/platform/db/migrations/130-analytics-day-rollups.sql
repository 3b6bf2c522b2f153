-- Each ended day's analytics, kept by the jobs so that the console reads days, not raw events
-- (decision 253). A day is a calendar day of the site's time zone and its visits are cut at its
-- midnight. One row per breakdown value of the day; dimension '' holds the day's totals (value
-- NULL) and 'language' the page language. A NULL value is "without one" (a direct visit has no
-- referrer). visitors is the day's exact count; sketch estimates unique visitors over several days
-- (visitor-sketch.ts): its bits of several days merge with bit_or.
CREATE TABLE analytics_day_rollups (
  day date NOT NULL,
  dimension text NOT NULL,
  value text,
  visitors integer NOT NULL,
  visits integer NOT NULL,
  views integer NOT NULL,
  -- Only on the totals row: visits of one page view, and the visits' summed length in seconds.
  bounces integer NOT NULL,
  seconds double precision NOT NULL,
  sketch bit varying NOT NULL
);
CREATE INDEX analytics_day_rollups_day ON analytics_day_rollups (day, dimension);

-- The days rolled up, in which time zone, and the last event counted: events with a larger id that
-- fall on a rolled day (a late batch) make the job roll that day again.
CREATE TABLE analytics_rolled_days (
  day date PRIMARY KEY,
  time_zone text NOT NULL,
  rolled_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  last_event_id bigint NOT NULL
);
