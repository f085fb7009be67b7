import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { Page } from "../../domain/page.js";
import { normalizeEmail, type User, type UserView } from "../../domain/user.js";
import { MarketplaceError } from "../../errors.js";
import { pageQuerySchema } from "../../schemas/page-query.js";
import { decodeCursor, toPage } from "../../support/cursor.js";
import { validate } from "../../support/validate.js";
import { requireAdmin, requireUuid } from "../access.js";
import { viewOf, viewsOf } from "../user-view.js";

/** Every user, newest first (admin JWT). */
export async function listUsers(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  query: unknown,
): Promise<Page<UserView>> {
  requireAdmin(actor);
  const q = validate(pageQuerySchema, query);
  const page = toPage(
    await deps.repos.users.list({ limit: q.limit + 1, before: decodeCursor(q.cursor) }),
    q.limit,
  );
  return { items: await viewsOf(deps, page.items), nextCursor: page.nextCursor };
}

/** Deletes a user with their listings and keys in one step (admin JWT). Admins cannot be deleted. */
export async function deleteUser(deps: Pick<Deps, "repos">, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  const target = await deps.repos.users.findById(
    requireUuid(id, new MarketplaceError("invalid_input", "user_id: must be a UUID")),
  );
  if (!target) throw new MarketplaceError("user_not_found");
  if (target.isAdmin) throw new MarketplaceError("cannot_delete_admin");
  if (!(await deps.repos.users.deleteCascade(target.id))) throw new MarketplaceError("user_not_found");
}

/**
 * Makes sure the configured admin exists: created with the password if absent,
 * promoted if present. An existing password is left alone (the admin may have changed it).
 */
export async function ensureAdmin(
  deps: Pick<Deps, "repos" | "hasher" | "clock" | "ids">,
  input: { email: string; password: string },
): Promise<UserView> {
  const email = normalizeEmail(input.email);
  const existing = await deps.repos.users.findByEmail(email);
  if (existing) {
    const user = existing.isAdmin
      ? existing
      : await deps.repos.users.updateProfile(existing.id, { isAdmin: true });
    return viewOf(deps, user ?? existing);
  }
  const now = deps.clock.now();
  const user: User = {
    id: deps.ids.newId(now),
    email,
    displayName: "Admin",
    isAdmin: true,
    accountType: "business",
    passwordHash: await deps.hasher.hash(input.password),
    tokenVersion: 0,
    createdAt: now,
  };
  try {
    await deps.repos.users.insert(user);
  } catch (error) {
    // Another process created it at the same moment: that is the outcome we want.
    if (error instanceof MarketplaceError && error.code === "email_taken") return ensureAdmin(deps, input);
    throw error;
  }
  return viewOf(deps, user);
}
