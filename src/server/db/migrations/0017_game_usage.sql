CREATE TABLE "game_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"game_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "game_usage" (
	"game_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"players" integer NOT NULL,
	"memory_bytes" bigint NOT NULL,
	"cpu_cores" real NOT NULL,
	"ram_mb" integer NOT NULL,
	CONSTRAINT "game_usage_game_id_at_pk" PRIMARY KEY("game_id","at")
);
--> statement-breakpoint
ALTER TABLE "game_events" ADD CONSTRAINT "game_events_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_usage" ADD CONSTRAINT "game_usage_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "game_events_game_idx" ON "game_events" USING btree ("game_id","at");--> statement-breakpoint
CREATE INDEX "game_events_at_idx" ON "game_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "game_usage_at_idx" ON "game_usage" USING btree ("at");