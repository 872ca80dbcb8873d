ALTER TABLE "backup_links" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "game_schedules" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "backup_links" ADD CONSTRAINT "backup_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;