-- Ledger entries get their place in their account; existing ones in the order they were written.
DROP INDEX "ledger_entries_user_created_idx";--> statement-breakpoint
ALTER TABLE "credit_accounts" ADD COLUMN "entries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "account_seq" integer;--> statement-breakpoint
UPDATE "ledger_entries" e SET "account_seq" = n.seq
  FROM (SELECT "id", row_number() OVER (PARTITION BY "user_id" ORDER BY "created_at", "id") AS seq FROM "ledger_entries") n
  WHERE e."id" = n."id";--> statement-breakpoint
UPDATE "credit_accounts" a SET "entries" = c.n
  FROM (SELECT "user_id", count(*) AS n FROM "ledger_entries" GROUP BY "user_id") c
  WHERE a."user_id" = c."user_id";--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "account_seq" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_user_seq_idx" ON "ledger_entries" USING btree ("user_id","account_seq");
