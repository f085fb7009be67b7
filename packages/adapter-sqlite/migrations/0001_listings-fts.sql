-- Title search: an FTS5 trigram index over the folded title (JS toLowerCase,
-- written by the repository), so a term of 3+ characters is an index lookup and
-- case-insensitivity covers every letter, not only ASCII.
-- The indexed text is the folded title plus two U+FFFF noncharacters: then every
-- 1- or 2-character substring of a title starts some indexed trigram, which
-- lets short terms use the index too (see listing-search.ts). A view supplies
-- that text as the external content, so it is never stored twice.
-- The FTS rowid is -seq: seq grows with id (listing-order.ts), so ascending FTS
-- rowids, the order FTS5 streams hits in, are newest first.
CREATE VIEW `listings_fts_content` AS
	SELECT -seq AS fts_rowid, title_folded || char(65535, 65535) AS title_padded FROM listings;
--> statement-breakpoint
-- detail=none: rowids only, no positions; search ANDs trigrams and checks the
-- exact substring on the row, which is smaller and faster than phrase matching.
-- columnsize=0: no per-row sizes (they only serve bm25 ranking, unused here).
-- case_sensitive 1: the text is already folded, and FTS5's own folding could
-- disagree with JS toLowerCase on some letters.
CREATE VIRTUAL TABLE `listings_fts` USING fts5(
	title_padded,
	content='listings_fts_content',
	content_rowid='fts_rowid',
	tokenize='trigram case_sensitive 1',
	detail=none,
	columnsize=0
);
--> statement-breakpoint
-- The distinct trigrams, for expanding a short term into the trigrams it starts.
CREATE VIRTUAL TABLE `listings_fts_vocab` USING fts5vocab(`listings_fts`, 'row');
--> statement-breakpoint
-- The triggers run inside the statement that writes the listing, so the index is
-- always in step with the table (same transaction, same rollback, cascades too).
CREATE TRIGGER `listings_fts_after_insert` AFTER INSERT ON `listings` BEGIN
	INSERT INTO `listings_fts` (rowid, title_padded) VALUES (-new.seq, new.title_folded || char(65535, 65535));
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_after_delete` AFTER DELETE ON `listings` BEGIN
	INSERT INTO `listings_fts` (`listings_fts`, rowid, title_padded)
		VALUES ('delete', -old.seq, old.title_folded || char(65535, 65535));
END;
--> statement-breakpoint
-- Only a change of the folded title (or of seq) touches the index: a view count
-- or status update costs no FTS work.
CREATE TRIGGER `listings_fts_after_update` AFTER UPDATE OF title_folded, seq ON `listings`
WHEN old.title_folded IS NOT new.title_folded OR old.seq IS NOT new.seq BEGIN
	INSERT INTO `listings_fts` (`listings_fts`, rowid, title_padded)
		VALUES ('delete', -old.seq, old.title_folded || char(65535, 65535));
	INSERT INTO `listings_fts` (rowid, title_padded) VALUES (-new.seq, new.title_folded || char(65535, 65535));
END;
--> statement-breakpoint
-- Index whatever rows exist already (none on a fresh database).
INSERT INTO `listings_fts` (`listings_fts`) VALUES ('rebuild');
