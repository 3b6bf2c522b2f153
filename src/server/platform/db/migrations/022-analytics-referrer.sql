-- The site another site's link brought a visitor from: its host name only, never the address of
-- the page, and nothing when the visitor came from this site itself or typed the address.
ALTER TABLE analytics_events ADD COLUMN referrer_host text;
