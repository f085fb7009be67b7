-- `q` with a category read three times the time of `q` alone: the words'
-- streams in listings_text and listings_title hold every category, so a page of
-- one category (a tenth of the rows) read ten times as far down them. These two
-- indexes hold the same words (of titles and descriptions, of titles alone)
-- with a category-major FTS rowid, key * 2^59 - seq: each category's rows are
-- one rowid range, newest first within it, and a stream bounded to that range
-- reads that category's entries alone. DESIGN.md "Words by category". A row
-- whose category has no key, or whose seq is 2^59 or more (none while ids are
-- UUIDv7 made before the year 3084), is left out, and a find with a category
-- then reads listings_text and listings_title as before (listing-find.ts).
-- detail=none, columnsize=0: rows only (rank 1 is told from rank 0 by the
-- title, in JS), at about three quarters of listings_text's size.
CREATE TABLE `listing_category_keys` (
	`category` text PRIMARY KEY NOT NULL,
	`key` integer NOT NULL UNIQUE CHECK (`key` BETWEEN 1 AND 15)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `listing_category_keys` (`category`, `key`) VALUES
	('strategic-consulting', 1), ('software-development', 2), ('digital-marketing', 3), ('ux-ui-design', 4),
	('staffing-hr', 5), ('data-analytics', 6), ('cybersecurity', 7), ('artificial-intelligence', 8),
	('legal-consulting', 9), ('financial-services', 10);
--> statement-breakpoint
CREATE VIEW `listings_words_cat_content` AS
	SELECT k.`key` * 576460752303423488 - l.seq AS fts_rowid, l.title, l.description
	FROM listings AS l JOIN listing_category_keys AS k ON k.category = l.category
	WHERE l.seq > 0 AND l.seq < 576460752303423488;
--> statement-breakpoint
CREATE VIRTUAL TABLE `listings_words_cat` USING fts5(
	title,
	description,
	content='listings_words_cat_content',
	content_rowid='fts_rowid',
	tokenize='porter unicode61 remove_diacritics 2',
	detail=none,
	columnsize=0,
	prefix='1 2 3 4 5 6'
);
--> statement-breakpoint
CREATE VIEW `listings_title_cat_content` AS
	SELECT k.`key` * 576460752303423488 - l.seq AS fts_rowid, l.title
	FROM listings AS l JOIN listing_category_keys AS k ON k.category = l.category
	WHERE l.seq > 0 AND l.seq < 576460752303423488;
--> statement-breakpoint
CREATE VIRTUAL TABLE `listings_title_cat` USING fts5(
	title,
	content='listings_title_cat_content',
	content_rowid='fts_rowid',
	tokenize='porter unicode61 remove_diacritics 2',
	detail=none,
	columnsize=0,
	prefix='1 2 3 4 5 6'
);
--> statement-breakpoint
-- In the statement that writes the listing: same transaction, same rollback, cascades too.
CREATE TRIGGER `listings_by_category_after_insert` AFTER INSERT ON `listings` BEGIN
	INSERT INTO `listings_words_cat` (rowid, title, description)
		SELECT `key` * 576460752303423488 - new.seq, new.title, new.description FROM listing_category_keys
		WHERE category = new.category AND new.seq > 0 AND new.seq < 576460752303423488;
	INSERT INTO `listings_title_cat` (rowid, title)
		SELECT `key` * 576460752303423488 - new.seq, new.title FROM listing_category_keys
		WHERE category = new.category AND new.seq > 0 AND new.seq < 576460752303423488;
END;
--> statement-breakpoint
CREATE TRIGGER `listings_by_category_after_delete` AFTER DELETE ON `listings` BEGIN
	INSERT INTO `listings_words_cat` (`listings_words_cat`, rowid, title, description)
		SELECT 'delete', `key` * 576460752303423488 - old.seq, old.title, old.description FROM listing_category_keys
		WHERE category = old.category AND old.seq > 0 AND old.seq < 576460752303423488;
	INSERT INTO `listings_title_cat` (`listings_title_cat`, rowid, title)
		SELECT 'delete', `key` * 576460752303423488 - old.seq, old.title FROM listing_category_keys
		WHERE category = old.category AND old.seq > 0 AND old.seq < 576460752303423488;
END;
--> statement-breakpoint
-- Only a change of the text, the category or seq touches these indexes.
CREATE TRIGGER `listings_by_category_after_update` AFTER UPDATE OF title, description, category, seq ON `listings`
WHEN old.title IS NOT new.title OR old.description IS NOT new.description OR old.category IS NOT new.category
	OR old.seq IS NOT new.seq BEGIN
	INSERT INTO `listings_words_cat` (`listings_words_cat`, rowid, title, description)
		SELECT 'delete', `key` * 576460752303423488 - old.seq, old.title, old.description FROM listing_category_keys
		WHERE category = old.category AND old.seq > 0 AND old.seq < 576460752303423488;
	INSERT INTO `listings_title_cat` (`listings_title_cat`, rowid, title)
		SELECT 'delete', `key` * 576460752303423488 - old.seq, old.title FROM listing_category_keys
		WHERE category = old.category AND old.seq > 0 AND old.seq < 576460752303423488;
	INSERT INTO `listings_words_cat` (rowid, title, description)
		SELECT `key` * 576460752303423488 - new.seq, new.title, new.description FROM listing_category_keys
		WHERE category = new.category AND new.seq > 0 AND new.seq < 576460752303423488;
	INSERT INTO `listings_title_cat` (rowid, title)
		SELECT `key` * 576460752303423488 - new.seq, new.title FROM listing_category_keys
		WHERE category = new.category AND new.seq > 0 AND new.seq < 576460752303423488;
END;
--> statement-breakpoint
-- Index the rows that exist already (the views leave out those the triggers do).
INSERT INTO `listings_words_cat` (`listings_words_cat`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `listings_title_cat` (`listings_title_cat`) VALUES ('rebuild');
