-- The public answers kept in memory (the catalogue, the credit packs) are dropped on every replica
-- when their tables change: NOTIFY is sent at commit, once per statement, whichever module or
-- replica wrote (a definition's rating changes with the reviews' transactions). The channel is
-- the trigger's argument.
CREATE OR REPLACE FUNCTION notify_answers_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify(TG_ARGV[0], TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER game_definitions_changed AFTER INSERT OR UPDATE OR DELETE ON game_definitions FOR EACH STATEMENT EXECUTE FUNCTION notify_answers_changed('catalogue_changed');
--> statement-breakpoint
CREATE TRIGGER game_packages_changed AFTER INSERT OR UPDATE OR DELETE ON game_packages FOR EACH STATEMENT EXECUTE FUNCTION notify_answers_changed('catalogue_changed');
--> statement-breakpoint
CREATE TRIGGER credit_packs_changed AFTER INSERT OR UPDATE OR DELETE ON credit_packs FOR EACH STATEMENT EXECUTE FUNCTION notify_answers_changed('pricing_changed');
