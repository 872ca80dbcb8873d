ALTER TABLE "backup_settings" ADD COLUMN "restore_from" text;--> statement-breakpoint
ALTER TABLE "backup_settings" ADD COLUMN "restore_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "backup_settings" ADD COLUMN "restore_restart" boolean;