-- Read caches of every replica drop a row's copy when its transaction commits (NOTIFY is sent at
-- commit, and only for committed work), whichever module or replica wrote it.
CREATE OR REPLACE FUNCTION notify_user_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('user_changed', NEW.id::text);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER INSERT OR UPDATE ON users FOR EACH ROW EXECUTE FUNCTION notify_user_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_balance_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('balance_changed', NEW.user_id::text);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER credit_accounts_changed AFTER INSERT OR UPDATE ON credit_accounts FOR EACH ROW EXECUTE FUNCTION notify_balance_changed();
