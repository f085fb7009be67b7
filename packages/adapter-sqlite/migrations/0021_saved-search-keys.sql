-- A saved search whose q is one word is keyed by the first letters every stem
-- that word matches begins with (core's savedSearchMatchKey). A word typed past
-- its stem now also matches the stems of the words it completes, so such a key
-- may be shorter than before. Only JS can work it out: these rows are marked
-- `r:` here and keyed again by the migration step that runs after (migrate.ts).
UPDATE `saved_searches` SET `match_key` = 'r:' || `match_key` WHERE `match_key` LIKE 'p:%';
