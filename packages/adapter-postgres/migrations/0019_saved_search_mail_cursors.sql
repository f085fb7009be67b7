-- Recording a match writes less: saved_search_matches is keyed by listing
-- first (listing ids grow with time, so a round's matches land at the right
-- edge of the index, not all over it), without the foreign key whose cascade
-- would need an index by saved search, and without the unmailed index. A
-- saved search's unmailed matches are now its owner's saved_search.matched
-- events after its mailed cursor, `saved_searches.mailed_seq`.
ALTER TABLE "saved_searches" ADD COLUMN "mailed_seq" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Each cursor starts just before the event of the saved search's oldest
-- unmailed match, or, with none (or its event swept), at the log's end.
UPDATE "saved_searches" s SET "mailed_seq" = coalesce(
  (SELECT min(e."seq") - 1 FROM "saved_search_matches" m
    JOIN "events" e ON e."user_id" = s."user_id" AND e."type" = 'saved_search.matched'
      AND e."data" ->> 'saved_search_id' = m."saved_search_id"::text
      AND e."data" ->> 'listing_id' = m."listing_id"::text
    WHERE m."saved_search_id" = s."id" AND m."mailed_at" IS NULL),
  (SELECT "last" FROM "event_sequence" WHERE "id" = 1),
  0);
--> statement-breakpoint
ALTER TABLE "saved_search_matches" DROP CONSTRAINT "saved_search_matches_saved_search_id_saved_searches_id_fk";
--> statement-breakpoint
DROP INDEX "saved_search_matches_unmailed_idx";
--> statement-breakpoint
ALTER TABLE "saved_search_matches" DROP CONSTRAINT "saved_search_matches_saved_search_id_listing_id_pk";
--> statement-breakpoint
ALTER TABLE "saved_search_matches" ADD CONSTRAINT "saved_search_matches_listing_id_saved_search_id_pk" PRIMARY KEY("listing_id","saved_search_id");
--> statement-breakpoint
ALTER TABLE "saved_search_matches" DROP COLUMN "mailed_at";
