ALTER TABLE "users" ADD COLUMN "locale" text DEFAULT 'fr' NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "reason_key" text;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "reason_params" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "key" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "params" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- Rows written as text keep it, shown as written: the generic "text" message takes it as its parameters.
UPDATE "ledger_entries" SET "reason_key" = 'text', "reason_params" = jsonb_build_object('text', "reason");--> statement-breakpoint
UPDATE "notifications" SET "key" = 'text', "params" = jsonb_build_object('title', "title", 'description', "description");--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "reason_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP COLUMN "reason";--> statement-breakpoint
ALTER TABLE "notifications" DROP COLUMN "title";--> statement-breakpoint
ALTER TABLE "notifications" DROP COLUMN "description";
