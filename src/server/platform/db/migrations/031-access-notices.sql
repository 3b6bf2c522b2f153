-- Event streams stay open for minutes (decision 080) and were let in once, when they opened. When a
-- session ends (sign-out, sign-out everywhere, a password reset, the account deleted, a lapsed or
-- expired session removed) or a role changes, every instance must hear of it at once, whichever
-- code made the change, so that the streams opened with that session or role check again
-- (decision 093). Done here rather than next to each DELETE or UPDATE: a path added later (ending
-- other sessions when a factor changes, say) cannot forget it. The notification carries only the
-- account's id, is heard at commit only, and is sent once per account however many rows a
-- statement removes (PostgreSQL folds identical notifications of one transaction).
CREATE FUNCTION notice_access_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV[0] names the column that holds the account's id in the table the trigger is on.
  PERFORM pg_notify('access', to_jsonb(OLD) ->> TG_ARGV[0]);
  RETURN NULL;
END
$$;

CREATE TRIGGER sessions_ended AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notice_access_change('account_id');

CREATE TRIGGER accounts_role_changed AFTER UPDATE OF role ON accounts
  FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role) EXECUTE FUNCTION notice_access_change('id');
