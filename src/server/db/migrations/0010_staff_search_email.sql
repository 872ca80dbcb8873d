DROP INDEX "users_email_prefix_idx";--> statement-breakpoint
CREATE INDEX "users_email_prefix_idx" ON "users" USING btree (lower("email") text_pattern_ops,"created_at","id","name","email");