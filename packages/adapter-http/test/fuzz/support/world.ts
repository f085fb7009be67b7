import type { Repositories, SecurityMode } from "@psm/core";
import { type Session, type Target, target } from "../../security/support/target.js";

/** A small populated marketplace to fuzz against: users, an admin, listings, keys, a message. */
export interface World {
  t: Target;
  user: Session;
  other: Session;
  admin: Session;
  userKey: string;
  adminKey: string;
  keyId: string;
  listingId: string;
  otherListingId: string;
  /** A JSON image of everything stored, to compare before and after a refused request. */
  snapshot(): Promise<string>;
}

const ALL = { limit: 100_000 };

/**
 * Everything a request could write, read back through the ports: users,
 * listings, keys, messages and queued mail (their counts and their contents).
 * `lastUsed` is left out: authenticating with a key stamps it by design.
 */
export async function snapshotOf(repos: Repositories, since: Date): Promise<string> {
  const users = await repos.users.list(ALL);
  const listings = await repos.listings.listAll(ALL);
  const keys = (await repos.apiKeys.list(undefined, ALL)).map(({ lastUsed: _, ...key }) => key);
  const messages = [];
  const mail = [];
  for (const user of users) {
    messages.push(...(await repos.messages.list(user.id, "sent", ALL)));
    mail.push(await repos.mailQueue.countSince(user.id, "password_reset", since));
  }
  const counts = {
    users: users.length,
    listings: listings.length,
    keys: keys.length,
    messages: messages.length,
  };
  return JSON.stringify({ counts, users, listings, keys, messages, mail });
}

/** Builds a fresh world: fuzzing one endpoint never sees another's leftovers. */
export async function createWorld(mode: SecurityMode): Promise<World> {
  const t = target({ mode });
  const user = await t.signUp();
  const other = await t.signUp();
  const admin = await t.admin();
  const { id: keyId, key: userKey } = await t.apiKey(user);
  const { key: adminKey } = await t.apiKey(admin);
  const listingId = (await t.listing(user)).id;
  const otherListingId = (await t.listing(other)).id;
  await t.request("POST", "/api/messages", {
    token: other.token,
    body: { listing_id: listingId, receiver_id: user.id, content: "Interested" },
  });
  await t.request("POST", "/api/auth/reset-password", { body: { email: user.email } });
  // Stamp last_used once now, so later authentications leave the keys as they are.
  for (const key of [userKey, adminKey]) await t.request("GET", "/api/auth/me", { key });
  const epoch = new Date(0);
  return {
    t,
    user,
    other,
    admin,
    userKey,
    adminKey,
    keyId,
    listingId,
    otherListingId,
    snapshot: () => snapshotOf(t.deps.repos, epoch),
  };
}
