-- A pack's label becomes {fr, en}: the label each existing pack had goes into both languages (staff translate it later).
ALTER TABLE "credit_packs" ALTER COLUMN "label" SET DATA TYPE jsonb USING CASE WHEN "label" IS NULL THEN NULL ELSE jsonb_build_object('fr', "label", 'en', "label") END;
