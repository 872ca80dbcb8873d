DROP INDEX "users_name_prefix_idx";--> statement-breakpoint
DROP INDEX "users_email_prefix_idx";--> statement-breakpoint
DROP INDEX "minecraft_profiles_name_key_idx";--> statement-breakpoint
CREATE INDEX "users_name_prefix_idx" ON "users" USING btree (lower("name") text_pattern_ops,"created_at","id","name");--> statement-breakpoint
CREATE INDEX "users_email_prefix_idx" ON "users" USING btree (lower("email") text_pattern_ops,"created_at","id","name");--> statement-breakpoint
CREATE INDEX "minecraft_profiles_name_key_idx" ON "minecraft_profiles" USING btree ("name_key" text_pattern_ops,"uuid");