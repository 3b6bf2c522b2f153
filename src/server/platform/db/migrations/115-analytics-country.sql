-- The visitor's country (ISO 3166-1 alpha-2), looked up from the client address when the event
-- arrives (decision 215). The address itself is never kept; null means no country (a private or
-- unknown address, or an event stored before this column).
ALTER TABLE analytics_events ADD COLUMN country text;
