import type { Repositories, SecurityMode } from "@psm/core";
import { type Cast, castOf } from "../../security/support/cast.js";
import { type Target, target } from "../../security/support/target.js";

/** A small populated marketplace to fuzz against: users, an admin, listings, keys, a message. */
export interface World extends Cast {
  t: Target;
  adminKey: string;
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
  const webhooks = [];
  for (const user of users) {
    messages.push(...(await repos.messages.list(user.id, "sent", ALL)));
    mail.push(await repos.mailQueue.countSince(user.id, "password_reset", since));
    webhooks.push(...(await repos.webhooks.listByUser(user.id, ALL)));
  }
  const counts = {
    users: users.length,
    listings: listings.length,
    keys: keys.length,
    messages: messages.length,
  };
  return JSON.stringify({ counts, users, listings, keys, messages, mail, webhooks });
}

/** Builds a fresh world: fuzzing one endpoint never sees another's leftovers. */
export async function createWorld(mode: SecurityMode): Promise<World> {
  const t = target({ mode });
  const cast = await castOf(t);
  const { key: adminKey } = await t.apiKey(cast.admin);
  await t.request("POST", "/api/messages", {
    token: cast.other.token,
    body: { listing_id: cast.listingId, receiver_id: cast.user.id, content: "Interested" },
  });
  await t.request("POST", "/api/auth/reset-password", { body: { email: cast.user.email } });
  // Stamp last_used once now, so later authentications leave the keys as they are.
  for (const key of [cast.userKey, adminKey]) await t.request("GET", "/api/auth/me", { key });
  const epoch = new Date(0);
  return { ...cast, t, adminKey, snapshot: () => snapshotOf(t.deps.repos, epoch) };
}
