import { isSearchable, type Listing } from "../../domain/listing.js";
import { SAVED_SEARCH_DIGEST_REF, SAVED_SEARCH_MAIL_LISTINGS } from "../../domain/notification.js";
import type { SavedSearch } from "../../domain/saved-search.js";
import { unsubscribeUrl } from "../notifications/unsubscribe-links.js";
import type { Composer, MailDeps } from "./composer.js";

/** The most unmailed matches one mail reads: it names SAVED_SEARCH_MAIL_LISTINGS and counts the rest. */
const READ = 200;

/** The most reads of a user's events one mail makes to find its matches (UNMAILED_SCAN_EVENTS each). */
const READS = 20;

/**
 * The unmailed matches of the user's saved search (null: all of theirs). A read looks through a
 * bounded part of the user's events; one that found no match moves the cursors past what it read
 * (nothing to mail there) and reads on, so a busy log delays a match to a later read, never loses it.
 */
async function unmailed(deps: MailDeps, userId: string, searchId: string | null) {
  let read = await deps.repos.savedSearches.unmailedMatches(userId, searchId, READ);
  for (let reads = 1; reads < READS && read.matches.length === 0 && read.through !== null; reads++) {
    await deps.repos.savedSearches.markMailed(userId, searchId, read.through);
    read = await deps.repos.savedSearches.unmailedMatches(userId, searchId, READ);
  }
  return read;
}

/**
 * New listings matching the reader's saved searches, read when the mail goes: every match not
 * mailed yet of one saved search (the job's ref; "instant", at most hourly) or of all of them (the
 * digest). Listings deleted or out of search since are left out; the saved searches' mailed
 * cursors move past the matches read, and back when the send fails. The address, the setting and the URL signer are
 * checked again: a user who turned saved-search mail off since the job was queued gets nothing.
 */
export const savedSearchMatched: Composer = async (deps, user, now, job) => {
  if (user.emailVerifiedAt === null) return { nothing: "the address was never proven" };
  if (!deps.urlSigner) return { nothing: "no URL signer: the mail could not carry its unsubscribe link" };
  if ((await deps.repos.notifications.get(user.id)).savedSearchMail === "off") {
    return { nothing: "saved search mail is turned off" };
  }
  const digest = job.ref === SAVED_SEARCH_DIGEST_REF;
  const searchId = digest ? null : job.ref;
  const { matches, through } = await unmailed(deps, user.id, searchId);
  const searchIds = [...new Set(matches.map((match) => match.savedSearchId))];
  const listingIds = [...new Set(matches.map((match) => match.listingId))];
  const [searches, listings] = await Promise.all([
    Promise.all(searchIds.map((id) => deps.repos.savedSearches.findById(id))),
    Promise.all(listingIds.map((id) => deps.repos.listings.findById(id))),
  ]);
  const searchById = new Map(
    searches.flatMap((search): [string, SavedSearch][] => (search ? [[search.id, search]] : [])),
  );
  const shown = new Map(
    listings.flatMap((listing): [string, Listing][] =>
      listing && isSearchable(listing, now) ? [[listing.id, listing]] : [],
    ),
  );
  const groups = new Map<string, { name: string; listings: { title: string; url: string }[] }>();
  let named = 0;
  let more = 0;
  for (const match of matches) {
    const search = searchById.get(match.savedSearchId);
    const listing = shown.get(match.listingId);
    if (!search || !listing) continue;
    if (named >= SAVED_SEARCH_MAIL_LISTINGS) {
      more++;
      continue;
    }
    named++;
    const group = groups.get(search.id) ?? { name: search.name, listings: [] };
    group.listings.push({ title: listing.title, url: `${deps.settings.publicUrl}/listings/${listing.id}` });
    groups.set(search.id, group);
  }
  // Matches of listings gone from search are settled too: they will not come back to a mail.
  const before =
    through === null ? {} : await deps.repos.savedSearches.markMailed(user.id, searchId, through);
  const undo = () => deps.repos.savedSearches.restoreMailed(before);
  if (named === 0) return { nothing: "no new match is still listed" };
  return {
    mail: {
      kind: "saved_search_matched",
      to: user.email,
      displayName: user.displayName,
      digest,
      searches: [...groups.values()],
      more,
      manageUrl: `${deps.settings.publicUrl}/account/saved-searches`,
      unsubscribeUrl: unsubscribeUrl(deps, deps.urlSigner, user.id, "saved_search_mail"),
    },
    undo,
  };
};
