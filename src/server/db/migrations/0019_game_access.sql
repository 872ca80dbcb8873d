CREATE TABLE "game_access" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"game_id" uuid NOT NULL,
	"friend_id" uuid,
	"group_id" uuid,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "game_access_one_kind" CHECK (("game_access"."friend_id" is null) <> ("game_access"."group_id" is null))
);
--> statement-breakpoint
ALTER TABLE "game_access" ADD CONSTRAINT "game_access_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_access" ADD CONSTRAINT "game_access_friend_id_users_id_fk" FOREIGN KEY ("friend_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_access" ADD CONSTRAINT "game_access_group_id_friend_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "friend_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "game_access_friend_key" ON "game_access" USING btree ("game_id","friend_id");--> statement-breakpoint
CREATE UNIQUE INDEX "game_access_group_key" ON "game_access" USING btree ("game_id","group_id");--> statement-breakpoint
CREATE INDEX "game_access_friend_idx" ON "game_access" USING btree ("friend_id");--> statement-breakpoint
CREATE INDEX "game_access_group_idx" ON "game_access" USING btree ("group_id");