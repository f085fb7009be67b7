-- Recording a match writes less: saved_search_matches is keyed by listing
-- first (listing ids grow with time, so a round's matches land at the end of
-- the b-tree, not all over it), without the foreign key whose cascade would
-- need an index by saved search, and without the unmailed index. A saved
-- search's unmailed matches are now its owner's saved_search.matched events
-- after its mailed cursor, `saved_searches.mailed_seq`.
ALTER TABLE `saved_searches` ADD `mailed_seq` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Each cursor starts just before the event of the saved search's oldest
-- unmailed match, or, with none (or its event swept), at the log's end.
UPDATE `saved_searches` SET `mailed_seq` = coalesce(
  (SELECT min(e.`seq`) - 1 FROM `saved_search_matches` m
    JOIN `events` e ON e.`user_id` = `saved_searches`.`user_id` AND e.`type` = 'saved_search.matched'
      AND e.`data` ->> '$.saved_search_id' = m.`saved_search_id` AND e.`data` ->> '$.listing_id' = m.`listing_id`
    WHERE m.`saved_search_id` = `saved_searches`.`id` AND m.`mailed_at` IS NULL),
  (SELECT coalesce(max(`seq`), 0) FROM `events`));
--> statement-breakpoint
CREATE TABLE `__new_saved_search_matches` (
	`saved_search_id` text NOT NULL,
	`listing_id` text NOT NULL,
	`matched_at` integer NOT NULL,
	PRIMARY KEY(`listing_id`, `saved_search_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_saved_search_matches`("saved_search_id", "listing_id", "matched_at") SELECT "saved_search_id", "listing_id", "matched_at" FROM `saved_search_matches`;
--> statement-breakpoint
DROP TABLE `saved_search_matches`;
--> statement-breakpoint
ALTER TABLE `__new_saved_search_matches` RENAME TO `saved_search_matches`;
