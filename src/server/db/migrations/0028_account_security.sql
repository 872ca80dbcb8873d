CREATE TABLE "identity_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"email" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "identity_accounts" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "identity_accounts" ADD COLUMN "totp_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_accounts" ADD COLUMN "totp_last_step" integer;--> statement-breakpoint
ALTER TABLE "identity_accounts" ADD COLUMN "recovery_codes" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_links" ADD CONSTRAINT "identity_links_account_id_identity_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "identity_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "identity_links_account_idx" ON "identity_links" USING btree ("account_id");