import type { Deps } from "../../deps.js";
import { type Actor, isAdmin, isSelfOrAdmin } from "../../domain/actor.js";
import { defaultDisplayName, normalizeEmail, type Profile, type User } from "../../domain/user.js";
import { MarketplaceError } from "../../errors.js";
import { type SyncProfileInput, syncProfileSchema } from "../../schemas/profile.js";
import { admitByMode } from "../access.js";
import { toProfile } from "./profile-view.js";

/**
 * Creates a profile if absent (an account with no password, usable after a
 * reset), otherwise updates its display name; a stored email never changes.
 * Strict mode: the caller's own id or an admin, and only an admin sets
 * accountType. Legacy mode (1.0.2): anyone, with the given accountType.
 */
export async function syncProfile(
  deps: Pick<Deps, "repos" | "clock" | "random" | "settings">,
  actor: Actor,
  input: SyncProfileInput,
): Promise<Profile> {
  const { strict, data } = admitByMode(deps.settings, actor, syncProfileSchema, input);
  const id = data.id.toLowerCase();
  if (strict && !isSelfOrAdmin(actor, id))
    throw new MarketplaceError("forbidden", "You can only sync your own profile");
  const admin = isAdmin(actor);
  const mayTypeAccount = admin || !strict;
  const existing = await deps.repos.users.findById(id);
  if (existing) {
    const updated = await deps.repos.users.updateProfile(id, {
      displayName: data.displayName,
      accountType: admin ? data.accountType : undefined,
    });
    return toProfile(updated ?? existing, true);
  }
  const now = deps.clock.now();
  const email = normalizeEmail(data.email);
  const user: User = {
    id,
    email,
    displayName: data.displayName ?? defaultDisplayName(deps.random),
    isAdmin: false,
    accountType: (mayTypeAccount ? data.accountType : undefined) ?? "personal",
    passwordHash: null,
    tokenVersion: 0,
    emailVerifiedAt: null,
    createdAt: now,
  };
  await deps.repos.users.insert(user);
  return toProfile(user, true);
}
