ALTER TABLE "ranked_matches" ADD COLUMN "game_id" uuid;--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD COLUMN "console_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD COLUMN "joined_a" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD COLUMN "joined_b" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD COLUMN "server_removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD CONSTRAINT "ranked_matches_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE set null ON UPDATE no action;