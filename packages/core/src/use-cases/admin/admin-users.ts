import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { Page } from "../../domain/page.js";
import type { UserView } from "../../domain/user.js";
import { MarketplaceError } from "../../errors.js";
import { type AdminDeleteUserInput, adminDeleteUserSchema } from "../../schemas/admin.js";
import { type PageQueryInput, pageQuerySchema } from "../../schemas/page-query.js";
import { decodeCursor, toPage } from "../../support/cursor.js";
import { validate } from "../../support/validate.js";
import { requireAdmin } from "../access.js";
import { viewsOf } from "../user-view.js";

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
