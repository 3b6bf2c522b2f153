-- What the console's breakdowns need of each event, worked out when it arrives (decision 180): the
-- browser's language, the campaign of the address (utm_*), and the device class, browser and
-- system named from the user agent. The user agent and the address themselves are never kept.
ALTER TABLE analytics_events ADD COLUMN browser_language text;
ALTER TABLE analytics_events ADD COLUMN utm_source text;
ALTER TABLE analytics_events ADD COLUMN utm_campaign text;
ALTER TABLE analytics_events ADD COLUMN device text;
ALTER TABLE analytics_events ADD COLUMN browser text;
ALTER TABLE analytics_events ADD COLUMN os text;

-- Page views of visitors who did not allow analytics: a plain count per day (in the site's time
-- zone), page and language, with no identifier, address, cookie or time of day.
CREATE TABLE analytics_unconsented_views (
  day date NOT NULL,
  path text NOT NULL,
  language text NOT NULL,
  views integer NOT NULL DEFAULT 0,
  PRIMARY KEY (day, path, language)
);
