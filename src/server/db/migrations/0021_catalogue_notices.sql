-- The public answers kept in memory (the catalogue, the credit packs) are dropped on every replica
-- when their tables change: NOTIFY is sent at commit, once per statement, whichever module or
-- replica wrote (a definition's rating changes with the reviews' transactions).
CREATE OR REPLACE FUNCTION notify_catalogue_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('catalogue_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER game_definitions_changed AFTER INSERT OR UPDATE OR DELETE ON game_definitions FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER game_packages_changed AFTER INSERT OR UPDATE OR DELETE ON game_packages FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_pricing_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('pricing_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER credit_packs_changed AFTER INSERT OR UPDATE OR DELETE ON credit_packs FOR EACH STATEMENT EXECUTE FUNCTION notify_pricing_changed();
