import type { Actor, Marketplace } from "@psm/core";

/** Shown for a user who no longer exists. */
export const UNKNOWN_MEMBER = "Former member";

/**
 * Display names of the given users (a page's authors or correspondents, at
 * most a page of them), by id through core's public lookup; the signed-in
 * caller's own name comes from the session.
 */
export async function displayNames(
  m: Marketplace,
  actor: Actor,
  ids: Iterable<string>,
): Promise<Map<string, string>> {
  const wanted = new Set(ids);
  const own = actor.kind === "user" && wanted.delete(actor.user.id) ? actor.user : null;
  const names = wanted.size > 0 ? await m.profiles.displayNames({ userIds: [...wanted] }) : new Map();
  if (own) names.set(own.id, own.displayName);
  return names;
}
