ALTER TABLE "games" ADD COLUMN "address_name" text;--> statement-breakpoint
-- Games bought before names existed get one from their id (80 random bits: unique in practice), which their owners may change.
UPDATE "games" SET "address_name" = 'game-' || left(replace("id"::text, '-', ''), 20);--> statement-breakpoint
ALTER TABLE "games" ALTER COLUMN "address_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "address_name_changed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "games_address_name_idx" ON "games" USING btree ("address_name") WHERE "games"."deleted_at" is null;
--> statement-breakpoint
-- The game gateway keeps every name in memory, on every replica: told at commit when a name is given, changed or freed.
CREATE TRIGGER games_addresses_changed AFTER INSERT OR DELETE OR UPDATE OF address_name, deleted_at ON games FOR EACH STATEMENT EXECUTE FUNCTION notify_answers_changed('game_addresses_changed');
