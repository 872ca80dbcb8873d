ALTER TABLE "games" ADD COLUMN "locked_for" text;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
-- A backup's or restore's claim held at the upgrade moves to the game's one lock: a restore cut off by the upgrade is resumed once it lapses.
UPDATE "games" SET "locked_for" = "backup_settings"."busy", "locked_until" = "backup_settings"."busy_until" FROM "backup_settings" WHERE "backup_settings"."game_id" = "games"."id" AND "backup_settings"."busy" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_settings" DROP COLUMN "busy";--> statement-breakpoint
ALTER TABLE "backup_settings" DROP COLUMN "busy_until";
