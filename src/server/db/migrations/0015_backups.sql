CREATE TABLE "backup_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"backup_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backup_settings" (
	"game_id" uuid PRIMARY KEY NOT NULL,
	"nightly" boolean DEFAULT true NOT NULL,
	"hour" integer DEFAULT 4 NOT NULL,
	"time_zone" text DEFAULT 'Europe/Paris' NOT NULL,
	"next_nightly_at" timestamp with time zone,
	"busy" text,
	"busy_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"game_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"created_by" uuid,
	"object_key" text NOT NULL,
	"size_bytes" bigint,
	"sha256" text,
	"pinned" boolean DEFAULT false NOT NULL,
	"note" text,
	"error" text,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "game_packages" ADD COLUMN "backups_kept" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "game_packages" ADD COLUMN "backups_max_mb" integer DEFAULT 10240 NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_links" ADD CONSTRAINT "backup_links_backup_id_backups_id_fk" FOREIGN KEY ("backup_id") REFERENCES "backups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_settings" ADD CONSTRAINT "backup_settings_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backups_game_idx" ON "backups" USING btree ("game_id","created_at");--> statement-breakpoint
-- Games bought before backups get the nightly one too; its time is set at the first round.
INSERT INTO "backup_settings" ("game_id") SELECT "id" FROM "games";
