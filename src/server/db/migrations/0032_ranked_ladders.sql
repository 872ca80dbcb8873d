CREATE TABLE "ranked_matches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mode_id" uuid NOT NULL,
	"season_id" uuid NOT NULL,
	"player_a" uuid NOT NULL,
	"player_b" uuid NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"result" text,
	"kills_a" integer DEFAULT 0 NOT NULL,
	"kills_b" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ranked_modes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" jsonb NOT NULL,
	"kills_to_win" integer NOT NULL,
	"time_limit_seconds" integer NOT NULL,
	"definition_id" uuid,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ranked_modes_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "ranked_queue" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"mode_id" uuid NOT NULL,
	"rating" double precision NOT NULL,
	"joined_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ranked_ratings" (
	"user_id" uuid NOT NULL,
	"mode_id" uuid NOT NULL,
	"season_id" uuid NOT NULL,
	"rating" double precision NOT NULL,
	"rd" double precision NOT NULL,
	"volatility" double precision NOT NULL,
	"matches" integer DEFAULT 0 NOT NULL,
	"wins" integer DEFAULT 0 NOT NULL,
	"losses" integer DEFAULT 0 NOT NULL,
	"draws" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ranked_ratings_user_id_mode_id_season_id_pk" PRIMARY KEY("user_id","mode_id","season_id")
);
--> statement-breakpoint
CREATE TABLE "ranked_seasons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ranked_seasons_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "rating_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"match_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"mode_id" uuid NOT NULL,
	"season_id" uuid NOT NULL,
	"rating_before" double precision NOT NULL,
	"rating_after" double precision NOT NULL,
	"rd_before" double precision NOT NULL,
	"rd_after" double precision NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD CONSTRAINT "ranked_matches_mode_id_ranked_modes_id_fk" FOREIGN KEY ("mode_id") REFERENCES "ranked_modes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD CONSTRAINT "ranked_matches_season_id_ranked_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "ranked_seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD CONSTRAINT "ranked_matches_player_a_users_id_fk" FOREIGN KEY ("player_a") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD CONSTRAINT "ranked_matches_player_b_users_id_fk" FOREIGN KEY ("player_b") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_modes" ADD CONSTRAINT "ranked_modes_definition_id_game_definitions_id_fk" FOREIGN KEY ("definition_id") REFERENCES "game_definitions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_queue" ADD CONSTRAINT "ranked_queue_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_queue" ADD CONSTRAINT "ranked_queue_mode_id_ranked_modes_id_fk" FOREIGN KEY ("mode_id") REFERENCES "ranked_modes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_ratings" ADD CONSTRAINT "ranked_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_ratings" ADD CONSTRAINT "ranked_ratings_mode_id_ranked_modes_id_fk" FOREIGN KEY ("mode_id") REFERENCES "ranked_modes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_ratings" ADD CONSTRAINT "ranked_ratings_season_id_ranked_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "ranked_seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rating_history" ADD CONSTRAINT "rating_history_match_id_ranked_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "ranked_matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rating_history" ADD CONSTRAINT "rating_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rating_history" ADD CONSTRAINT "rating_history_mode_id_ranked_modes_id_fk" FOREIGN KEY ("mode_id") REFERENCES "ranked_modes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rating_history" ADD CONSTRAINT "rating_history_season_id_ranked_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "ranked_seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ranked_matches_a_idx" ON "ranked_matches" USING btree ("player_a","created_at");--> statement-breakpoint
CREATE INDEX "ranked_matches_b_idx" ON "ranked_matches" USING btree ("player_b","created_at");--> statement-breakpoint
CREATE INDEX "ranked_matches_status_idx" ON "ranked_matches" USING btree ("status");--> statement-breakpoint
CREATE INDEX "ranked_queue_mode_idx" ON "ranked_queue" USING btree ("mode_id","joined_at");--> statement-breakpoint
CREATE INDEX "ranked_ratings_board_idx" ON "ranked_ratings" USING btree ("mode_id","season_id","rating" DESC NULLS LAST,"user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rating_history_match_user_key" ON "rating_history" USING btree ("match_id","user_id");--> statement-breakpoint
CREATE INDEX "rating_history_user_idx" ON "rating_history" USING btree ("user_id","created_at");