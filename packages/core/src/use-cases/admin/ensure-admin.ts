import type { Deps } from "../../deps.js";
import { normalizeEmail, type User, type UserView } from "../../domain/user.js";
import { MarketplaceError } from "../../errors.js";
import { listingEvent } from "../../support/events.js";
import { reclaimAccount } from "../auth/reclaim-account.js";
import { viewOf } from "../user-view.js";

/** The operator's admin account (ADMIN_EMAIL, ADMIN_PASSWORD). */
export interface EnsureAdminInput {
  email: string;
  password: string;
}

/** What ensureAdmin found and did. */
export interface EnsuredAdmin {
  user: UserView;
  outcome: "created" | "promoted" | "unchanged";
  /** With `promoted`: the listings the account had published, now paused (the operator reviews them). */
  pausedListingIds?: string[];
}

/** The display name of the configured admin, given to an account it takes over too. */
const ADMIN_DISPLAY_NAME = "Admin";
/** Listings read per page while pausing a taken-over account's. */
const PAUSE_PAGE = 100;

/**
 * Makes sure the configured admin (ADMIN_EMAIL, ADMIN_PASSWORD) exists:
 * created with the password and a proven address when no account has it; an
 * existing admin is left as it is (they may have changed their password).
 * A non-admin account holding the address may be someone who registered the
 * operator's address first, so it is taken over before it is promoted: its
 * password becomes the given one, its sessions and API keys end, its address
 * counts as proven, its display name becomes the admin's and its listings are
 * paused (nothing the squatter wrote is published under the admin's name).
 * Only then does it become an admin (`promoted`), so no credential of the
 * squatter ever carries admin rights.
 */
export async function ensureAdmin(
  deps: Pick<Deps, "repos" | "hasher" | "clock" | "ids" | "random">,
  input: EnsureAdminInput,
): Promise<EnsuredAdmin> {
  const email = normalizeEmail(input.email);
  const existing = await deps.repos.users.findByEmail(email);
  if (existing?.isAdmin) return { user: await viewOf(deps, existing), outcome: "unchanged" };
  const now = deps.clock.now();
  const passwordHash = await deps.hasher.hash(input.password);
  if (existing) {
    const reclaimed = await reclaimAccount(deps, existing.id, { passwordHash, endKeys: "all", now });
    const pausedListingIds = reclaimed ? await pauseListingsOf(deps, existing.id) : [];
    const promoted =
      reclaimed &&
      (await deps.repos.users.updateProfile(existing.id, { isAdmin: true, displayName: ADMIN_DISPLAY_NAME }));
    // Deleted meanwhile: start over, which creates it.
    if (!promoted) return ensureAdmin(deps, input);
    return { user: await viewOf(deps, promoted), outcome: "promoted", pausedListingIds };
  }
  const user: User = {
    id: deps.ids.newId(now),
    email,
    displayName: ADMIN_DISPLAY_NAME,
    isAdmin: true,
    accountType: "business",
    passwordHash,
    tokenVersion: 0,
    emailVerifiedAt: now,
    createdAt: now,
  };
  try {
    await deps.repos.users.insert(user);
  } catch (error) {
    // Another process created it at the same moment: that is the outcome we want.
    if (error instanceof MarketplaceError && error.code === "email_taken") return ensureAdmin(deps, input);
    throw error;
  }
  return { user: await viewOf(deps, user), outcome: "created" };
}

/** Pauses every stored-active listing of the user, each with its `listing.updated` event; answers their ids. */
async function pauseListingsOf(
  deps: Pick<Deps, "repos" | "clock" | "random">,
  userId: string,
): Promise<string[]> {
  const paused: string[] = [];
  const now = deps.clock.now();
  let before: string | undefined;
  for (;;) {
    const page = await deps.repos.listings.search({ userId, status: "all", limit: PAUSE_PAGE, before }, now);
    for (const listing of page) {
      if (listing.status !== "active") continue;
      const done = await deps.repos.listings.update(listing.id, { status: "paused" }, { maxSlots: 0, now }, [
        listingEvent(deps, "listing.updated", listing),
      ]);
      if (done !== null && done !== "limit_reached") paused.push(listing.id);
    }
    const next = page.resumeBefore ?? page.at(-1)?.id;
    if (next === undefined || (page.resumeBefore === undefined && page.length < PAUSE_PAGE)) return paused;
    before = next;
  }
}
