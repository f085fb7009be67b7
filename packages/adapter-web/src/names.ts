import type { Actor, Marketplace } from "@psm/core";

/** Shown for a user the lookup did not find (deleted, or beyond the pages it reads). */
export const UNKNOWN_MEMBER = "Former member";

// Core has no profile-by-id use case; profiles.list pages newest first, 100 at a time.
const PAGE_SIZE = 100;
const MAX_PAGES = 20;

/**
 * Display names of the given users, through core's public profile list (the
 * same names the API shows everyone). It reads pages until every id is found,
 * at most MAX_PAGES (2,000 users): a site larger than that needs a
 * profile-by-id use case in core, and meanwhile shows UNKNOWN_MEMBER.
 */
export async function displayNames(
  m: Marketplace,
  actor: Actor,
  ids: Iterable<string>,
): Promise<Map<string, string>> {
  const wanted = new Set(ids);
  const names = new Map<string, string>();
  if (actor.kind === "user" && wanted.delete(actor.user.id)) names.set(actor.user.id, actor.user.displayName);
  let cursor: string | undefined;
  for (let page = 0; wanted.size > 0 && page < MAX_PAGES; page++) {
    const result = await m.profiles.list(actor, { limit: PAGE_SIZE, cursor });
    for (const profile of result.items) {
      if (wanted.delete(profile.id)) names.set(profile.id, profile.displayName);
    }
    if (result.nextCursor === null) break;
    cursor = result.nextCursor;
  }
  return names;
}
