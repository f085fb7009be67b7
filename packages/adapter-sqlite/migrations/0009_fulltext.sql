-- 1.3: full-text search (`q`) over title and description: FTS5 with the Porter
-- stemmer over unicode61 with diacritics removed, so consulting finds
-- consultant and cafe finds café. External content: a view supplies the text,
-- so it is never stored twice. The FTS rowid is -seq, as in listings_fts
-- (0001), so ascending FTS rowids, the order FTS5 streams hits in, are newest
-- first. detail=column: column filters (title matches rank first) but no
-- positions (no phrases are asked for). prefix='1 2 3 4 5 6': the last word,
-- taken as a prefix, reads one doclist lazily instead of merging every term it
-- begins first (a longer one is looked up by its first six letters and checked
-- per row: listing-find-sql.ts lastWordTerm).
CREATE VIEW `listings_text_content` AS
	SELECT -seq AS fts_rowid, title, description FROM listings;
--> statement-breakpoint
CREATE VIRTUAL TABLE `listings_text` USING fts5(
	title,
	description,
	content='listings_text_content',
	content_rowid='fts_rowid',
	tokenize='porter unicode61 remove_diacritics 2',
	detail=column,
	prefix='1 2 3 4 5 6'
);
--> statement-breakpoint
-- In the statement that writes the listing: same transaction, same rollback, cascades too.
CREATE TRIGGER `listings_text_after_insert` AFTER INSERT ON `listings` BEGIN
	INSERT INTO `listings_text` (rowid, title, description) VALUES (-new.seq, new.title, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `listings_text_after_delete` AFTER DELETE ON `listings` BEGIN
	INSERT INTO `listings_text` (`listings_text`, rowid, title, description)
		VALUES ('delete', -old.seq, old.title, old.description);
END;
--> statement-breakpoint
-- Only a change of the text (or of seq) touches the index: views, status or price cost no FTS work.
CREATE TRIGGER `listings_text_after_update` AFTER UPDATE OF title, description, seq ON `listings`
WHEN old.title IS NOT new.title OR old.description IS NOT new.description OR old.seq IS NOT new.seq BEGIN
	INSERT INTO `listings_text` (`listings_text`, rowid, title, description)
		VALUES ('delete', -old.seq, old.title, old.description);
	INSERT INTO `listings_text` (rowid, title, description) VALUES (-new.seq, new.title, new.description);
END;
--> statement-breakpoint
-- Index the rows that exist already (none on a fresh database).
INSERT INTO `listings_text` (`listings_text`) VALUES ('rebuild');
--> statement-breakpoint
-- The price sorts walk these in (price, id) order within a status, or a
-- category and status; each price sort is the other reversed, so one serves both.
CREATE INDEX `listings_status_price_id_idx` ON `listings` (`status`,`price`,`id`);
--> statement-breakpoint
CREATE INDEX `listings_category_status_price_id_idx` ON `listings` (`category`,`status`,`price`,`id`);
