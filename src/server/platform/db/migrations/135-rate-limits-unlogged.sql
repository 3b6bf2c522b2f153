-- The counters skip PostgreSQL's write-ahead log: every counted request (each sign-in counts twice)
-- otherwise waited for its own flush to disk, which took hundreds of milliseconds while a flood
-- kept the disk busy, and on the embedded database ran on the thread that answers requests. A
-- crash empties the table (a restored backup may come back without its rows too): every window
-- starts afresh, and nothing else in it needs keeping (decision 255).
ALTER TABLE rate_limits SET UNLOGGED;
