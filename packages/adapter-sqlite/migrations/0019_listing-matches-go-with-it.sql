-- A listing's saved-search matches go with it. They are keyed by listing
-- first, so a trigger takes them with one seek of that key whichever way the
-- listing goes: deleted by its author or an admin, or with its author's
-- account (the users cascade deletes listings, which fires it too). Before,
-- they stayed for good, a row per match and listing ever deleted.
DELETE FROM `saved_search_matches`
  WHERE NOT EXISTS (SELECT 1 FROM `listings` WHERE `listings`.`id` = `saved_search_matches`.`listing_id`);
--> statement-breakpoint
CREATE TRIGGER `listings_delete_saved_search_matches` AFTER DELETE ON `listings`
BEGIN
  DELETE FROM `saved_search_matches` WHERE `listing_id` = OLD.`id`;
END;
