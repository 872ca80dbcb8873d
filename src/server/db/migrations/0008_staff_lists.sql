DROP INDEX "minecraft_profiles_name_key_idx";--> statement-breakpoint
CREATE INDEX "users_name_prefix_idx" ON "users" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_email_prefix_idx" ON "users" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_created_idx" ON "ledger_entries" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_kind_created_idx" ON "ledger_entries" USING btree ("kind","created_at","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_amount_idx" ON "ledger_entries" USING btree ("amount","id");--> statement-breakpoint
CREATE INDEX "minecraft_profiles_name_key_idx" ON "minecraft_profiles" USING btree ("name_key" text_pattern_ops);