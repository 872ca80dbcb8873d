ALTER TABLE "backup_settings" ADD COLUMN "expiry_backup_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "progress" integer;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "expires_at" timestamp with time zone;