import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { Page } from "../../domain/page.js";
import { normalizeEmail, type User, type UserView } from "../../domain/user.js";
import { MarketplaceError } from "../../errors.js";
import { type AdminDeleteUserInput, adminDeleteUserSchema } from "../../schemas/admin.js";
import { type PageQueryInput, pageQuerySchema } from "../../schemas/page-query.js";
import { decodeCursor, toPage } from "../../support/cursor.js";
import { validate } from "../../support/validate.js";
import { requireAdmin } from "../access.js";
import { reclaimAccount } from "../auth/reclaim-account.js";
import { viewOf, viewsOf } from "../user-view.js";

/** Every user, newest first (admin JWT). */
export async function listUsers(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  query: PageQueryInput,
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
export async function deleteUser(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  input: AdminDeleteUserInput,
): Promise<void> {
  requireAdmin(actor);
  const { userId } = validate(adminDeleteUserSchema, input);
  const target = await deps.repos.users.findById(userId.toLowerCase());
  if (!target) throw new MarketplaceError("user_not_found");
  if (target.isAdmin) throw new MarketplaceError("cannot_delete_admin");
  if (!(await deps.repos.users.deleteCascade(target.id))) throw new MarketplaceError("user_not_found");
}

/** The operator's admin account (ADMIN_EMAIL, ADMIN_PASSWORD). */
export interface EnsureAdminInput {
  email: string;
  password: string;
}

/** What ensureAdmin found and did. */
export interface EnsuredAdmin {
  user: UserView;
  outcome: "created" | "promoted" | "unchanged";
}

/**
 * Makes sure the configured admin (ADMIN_EMAIL, ADMIN_PASSWORD) exists:
 * created with the password and a proven address when no account has it; an
 * existing admin is left as it is (they may have changed their password).
 * A non-admin account holding the address may be someone who registered the
 * operator's address first, so it is taken over before it is promoted: its
 * password becomes the given one, its sessions and API keys end, its address
 * counts as proven. Only then does it become an admin (`promoted`), so no
 * credential of the squatter ever carries admin rights.
 */
export async function ensureAdmin(
  deps: Pick<Deps, "repos" | "hasher" | "clock" | "ids">,
  input: EnsureAdminInput,
): Promise<EnsuredAdmin> {
  const email = normalizeEmail(input.email);
  const existing = await deps.repos.users.findByEmail(email);
  if (existing?.isAdmin) return { user: await viewOf(deps, existing), outcome: "unchanged" };
  const now = deps.clock.now();
  const passwordHash = await deps.hasher.hash(input.password);
  if (existing) {
    const reclaimed = await reclaimAccount(deps, existing.id, { passwordHash, endKeys: true, now });
    const promoted = reclaimed && (await deps.repos.users.updateProfile(existing.id, { isAdmin: true }));
    // Deleted meanwhile: start over, which creates it.
    if (!promoted) return ensureAdmin(deps, input);
    return { user: await viewOf(deps, promoted), outcome: "promoted" };
  }
  const user: User = {
    id: deps.ids.newId(now),
    email,
    displayName: "Admin",
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
