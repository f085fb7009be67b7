-- A listing's saved-search matches go with it. They are keyed by listing
-- first, so a trigger takes them with one seek of that key whichever way the
-- listing goes: deleted by its author or an admin, or with its author's
-- account (the users cascade deletes listings, which fires it too). Before,
-- they stayed for good, a row per match and listing ever deleted.
DELETE FROM "saved_search_matches" m
  WHERE NOT EXISTS (SELECT 1 FROM "listings" l WHERE l."id" = m."listing_id");
--> statement-breakpoint
CREATE FUNCTION "psm_delete_listing_matches"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "saved_search_matches" WHERE "listing_id" = OLD."id";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "listings_delete_saved_search_matches" AFTER DELETE ON "listings"
  FOR EACH ROW EXECUTE FUNCTION "psm_delete_listing_matches"();
