-- One fixed-window counter per key (for example an action and a client address), shared by every
-- server instance. A row whose window has ended counts as absent: the next hit starts a new window.
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  hits integer NOT NULL,
  expires_at timestamptz NOT NULL
);

-- Pruning deletes ended windows without reading the whole table.
CREATE INDEX rate_limits_expires_at ON rate_limits (expires_at);
