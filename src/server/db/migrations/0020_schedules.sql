CREATE TABLE "game_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"game_id" uuid NOT NULL,
	"task" text NOT NULL,
	"command" text,
	"repeat" text NOT NULL,
	"time" text,
	"weekdays" integer[],
	"every_hours" integer,
	"time_zone" text NOT NULL,
	"anchor_at" timestamp with time zone NOT NULL,
	"only_when_running" boolean DEFAULT false NOT NULL,
	"countdown" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_run_at" timestamp with time zone,
	"warned" integer,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedule_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid NOT NULL,
	"game_id" uuid NOT NULL,
	"task" text NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text NOT NULL,
	"reason" text,
	"output" text,
	"manual" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "game_schedules" ADD CONSTRAINT "game_schedules_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_schedules" ADD CONSTRAINT "game_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_schedule_id_game_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "game_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "game_schedules_game_idx" ON "game_schedules" USING btree ("game_id");--> statement-breakpoint
CREATE INDEX "game_schedules_next_idx" ON "game_schedules" USING btree ("next_run_at");--> statement-breakpoint
CREATE INDEX "schedule_runs_schedule_idx" ON "schedule_runs" USING btree ("schedule_id","started_at");--> statement-breakpoint
CREATE INDEX "schedule_runs_game_task_idx" ON "schedule_runs" USING btree ("game_id","task","scheduled_for");