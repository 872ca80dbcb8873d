CREATE TABLE "ranked_rating_counts" (
	"mode_id" uuid NOT NULL,
	"season_id" uuid NOT NULL,
	"bucket" integer NOT NULL,
	"players" integer NOT NULL,
	CONSTRAINT "ranked_rating_counts_mode_id_season_id_bucket_pk" PRIMARY KEY("mode_id","season_id","bucket")
);
--> statement-breakpoint
ALTER TABLE "ranked_rating_counts" ADD CONSTRAINT "ranked_rating_counts_mode_id_ranked_modes_id_fk" FOREIGN KEY ("mode_id") REFERENCES "ranked_modes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_rating_counts" ADD CONSTRAINT "ranked_rating_counts_season_id_ranked_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "ranked_seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A rating row on a board (a match played) counts in its whole point, whatever writes it: the
-- results, an erasure, a mode's deletion. A change within the same point writes nothing.
CREATE OR REPLACE FUNCTION ranked_rating_counts_apply() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.matches > 0 AND NEW.matches > 0 AND NEW.mode_id = OLD.mode_id AND NEW.season_id = OLD.season_id
     AND floor(NEW.rating) = floor(OLD.rating) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.matches > 0 THEN
    UPDATE ranked_rating_counts SET players = players - 1
      WHERE mode_id = OLD.mode_id AND season_id = OLD.season_id AND bucket = floor(OLD.rating)::integer;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.matches > 0 THEN
    INSERT INTO ranked_rating_counts (mode_id, season_id, bucket, players) VALUES (NEW.mode_id, NEW.season_id, floor(NEW.rating)::integer, 1)
      ON CONFLICT (mode_id, season_id, bucket) DO UPDATE SET players = ranked_rating_counts.players + 1;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER ranked_ratings_counted AFTER INSERT OR UPDATE OF rating, matches, mode_id, season_id OR DELETE ON ranked_ratings FOR EACH ROW EXECUTE FUNCTION ranked_rating_counts_apply();
--> statement-breakpoint
-- Bulk loads with session_replication_role = replica (which skips the foreign keys) count too.
ALTER TABLE ranked_ratings ENABLE ALWAYS TRIGGER ranked_ratings_counted;
--> statement-breakpoint
INSERT INTO ranked_rating_counts (mode_id, season_id, bucket, players)
  SELECT mode_id, season_id, floor(rating)::integer, count(*) FROM ranked_ratings WHERE matches > 0 GROUP BY 1, 2, 3;
