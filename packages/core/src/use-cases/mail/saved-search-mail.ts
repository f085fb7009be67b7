import { isSearchable, type Listing } from "../../domain/listing.js";
import { SAVED_SEARCH_DIGEST_REF, SAVED_SEARCH_MAIL_LISTINGS } from "../../domain/notification.js";
import type { SavedSearch } from "../../domain/saved-search.js";
import { unsubscribeUrl } from "../notifications/unsubscribe-links.js";
import type { Composer } from "./composer.js";

/** The most unmailed matches one mail reads: it names SAVED_SEARCH_MAIL_LISTINGS and counts the rest. */
const READ = 200;

/**
 * New listings matching the reader's saved searches, read when the mail goes: every match not
 * mailed yet of one saved search (the job's ref; "instant", at most hourly) or of all of them (the
 * digest). Listings deleted or out of search since are left out; the matches read are marked
 * mailed, and marked back when the send fails. The address, the setting and the URL signer are
 * checked again: a user who turned saved-search mail off since the job was queued gets nothing.
 */
export const savedSearchMatched: Composer = async (deps, user, now, job) => {
  if (user.emailVerifiedAt === null) return { nothing: "the address was never proven" };
  if (!deps.urlSigner) return { nothing: "no URL signer: the mail could not carry its unsubscribe link" };
  if ((await deps.repos.notifications.get(user.id)).savedSearchMail === "off") {
    return { nothing: "saved search mail is turned off" };
  }
  const digest = job.ref === SAVED_SEARCH_DIGEST_REF;
  const matches = await deps.repos.savedSearches.unmailedMatches(user.id, digest ? null : job.ref, READ);
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
  await deps.repos.savedSearches.markMailed(matches, now);
  const undo = () => deps.repos.savedSearches.markMailed(matches, null);
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
