CREATE TABLE "tournament_entrants" (
	"tournament_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"mc_name" text NOT NULL,
	"fee_paid" integer DEFAULT 0 NOT NULL,
	"registrations" integer DEFAULT 1 NOT NULL,
	"seed" integer,
	"participant_id" integer,
	"placement" integer,
	"registered_at" timestamp with time zone NOT NULL,
	"checked_in_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "tournament_entrants_tournament_id_user_id_pk" PRIMARY KEY("tournament_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "tournament_payouts" (
	"tournament_id" uuid NOT NULL,
	"place" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"ledger_entry_id" uuid,
	"paid_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tournament_payouts_tournament_id_place_pk" PRIMARY KEY("tournament_id","place")
);
--> statement-breakpoint
CREATE TABLE "tournaments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" jsonb NOT NULL,
	"rules" jsonb NOT NULL,
	"mode_id" uuid NOT NULL,
	"format" text NOT NULL,
	"max_entrants" integer NOT NULL,
	"registration_opens_at" timestamp with time zone NOT NULL,
	"registration_closes_at" timestamp with time zone NOT NULL,
	"check_in_opens_at" timestamp with time zone NOT NULL,
	"check_in_closes_at" timestamp with time zone NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"entry_fee" integer DEFAULT 0 NOT NULL,
	"prize_first" integer DEFAULT 0 NOT NULL,
	"prize_second" integer DEFAULT 0 NOT NULL,
	"prize_third" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'SCHEDULED' NOT NULL,
	"bracket" jsonb,
	"overrides" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"check_in_notice_at" timestamp with time zone,
	"winner_id" uuid,
	"cancel_reason" text,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tournaments_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD COLUMN "tournament_id" uuid;--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD COLUMN "bracket_match_id" integer;--> statement-breakpoint
ALTER TABLE "tournament_entrants" ADD CONSTRAINT "tournament_entrants_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_entrants" ADD CONSTRAINT "tournament_entrants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_payouts" ADD CONSTRAINT "tournament_payouts_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournament_payouts" ADD CONSTRAINT "tournament_payouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_mode_id_ranked_modes_id_fk" FOREIGN KEY ("mode_id") REFERENCES "ranked_modes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tournaments" ADD CONSTRAINT "tournaments_winner_id_users_id_fk" FOREIGN KEY ("winner_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tournament_entrants_user_idx" ON "tournament_entrants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tournaments_status_starts_idx" ON "tournaments" USING btree ("status","starts_at");--> statement-breakpoint
ALTER TABLE "ranked_matches" ADD CONSTRAINT "ranked_matches_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ranked_matches_tournament_idx" ON "ranked_matches" USING btree ("tournament_id","bracket_match_id");