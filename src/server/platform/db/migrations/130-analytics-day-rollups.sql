-- Each day's analytics, kept by the jobs so that the console reads days, not raw events (decision
-- 253). A day is a calendar day of the site's time zone and its visits are cut at its midnight.
-- One row per breakdown value of the day (hour NULL); dimension '' holds the day's totals (value
-- NULL) and 'language' the page language. A NULL value is "without one" (a direct visit has no
-- referrer). Totals also come per hour (0 to 23) of the visits that began in it, so that a day
-- can be cut at an hour. visitors is the row's exact count; sketch estimates unique visitors over
-- several rows (visitor-sketch.ts): the sketches of several rows merge with bit_or.
CREATE TABLE analytics_day_rollups (
  day date NOT NULL,
  hour smallint,
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
-- fall on a rolled day (a late batch) make the job roll that day again. through is NULL for a
-- whole day, else the instant the current day was rolled up to.
CREATE TABLE analytics_rolled_days (
  day date PRIMARY KEY,
  time_zone text NOT NULL,
  through timestamptz,
  rolled_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  last_event_id bigint NOT NULL
);

-- The merged rows of each ended month whose days are all rolled up: a long period reads a month
-- as one row per value instead of thirty. visitors is the sum of the daily counts and most the
-- largest, which bound the estimate; a month is merged again when one of its days is rolled again.
CREATE TABLE analytics_month_rollups (
  month date NOT NULL,
  dimension text NOT NULL,
  value text,
  visitors integer NOT NULL,
  most integer NOT NULL,
  visits integer NOT NULL,
  views integer NOT NULL,
  bounces integer NOT NULL,
  seconds double precision NOT NULL,
  sketch bit varying NOT NULL
);
CREATE INDEX analytics_month_rollups_month ON analytics_month_rollups (month, dimension);
