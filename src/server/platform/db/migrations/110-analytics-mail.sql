-- Analytics by mail (decision 210): what each admin chose, and every report and alert mailed.
-- An admin without a row gets neither.
CREATE TABLE analytics_mail_settings (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  -- The report of the last week (sent on Mondays) or month (on the 1st), in the site's time zone.
  report text NOT NULL DEFAULT 'none' CHECK (report IN ('none', 'weekly', 'monthly')),
  -- An hour with more visits than this many times the usual level is mailed; NULL: no alerts.
  alert_multiple numeric(4, 1) CHECK (alert_multiple BETWEEN 2 AND 100),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per mail queued: the key makes each report (kind and first day of its period) and each
-- alert (its hour) mailed once per admin, whichever instance's job gets there first.
CREATE TABLE analytics_mails_sent (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('weekly', 'monthly', 'alert')),
  -- YYYY-MM-DD (a report's first day) or YYYY-MM-DDTHH (an alert's hour), in the site's time zone.
  period text NOT NULL,
  -- The site's day it was queued on: alerts are counted per day.
  day date NOT NULL,
  queued_at timestamptz NOT NULL DEFAULT statement_timestamp(),
  PRIMARY KEY (account_id, kind, period)
);
CREATE INDEX analytics_mails_sent_day ON analytics_mails_sent (account_id, kind, day);
