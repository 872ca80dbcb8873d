-- A package name written in one language is kept as both until staff translate it.
ALTER TABLE "game_packages" ALTER COLUMN "name" SET DATA TYPE jsonb USING jsonb_build_object('fr', "name", 'en', "name");--> statement-breakpoint
ALTER TABLE "game_packages" ADD COLUMN "description" jsonb;
