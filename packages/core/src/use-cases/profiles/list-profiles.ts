import type { Deps } from "../../deps.js";
import { type Actor, isSelfOrAdmin } from "../../domain/actor.js";
import type { Page } from "../../domain/page.js";
import type { Profile } from "../../domain/user.js";
import { type PageQueryInput, pageQuerySchema } from "../../schemas/page-query.js";
import { decodeCursor, toPage } from "../../support/cursor.js";
import { validate } from "../../support/validate.js";
import { toProfile } from "./profile-view.js";

/** All profiles, newest first. Strict mode shows an email only to its owner and admins. */
export async function listProfiles(
  deps: Pick<Deps, "repos" | "settings">,
  actor: Actor,
  query: PageQueryInput,
): Promise<Page<Profile>> {
  const q = validate(pageQuerySchema, query);
  const rows = await deps.repos.users.list({ limit: q.limit + 1, before: decodeCursor(q.cursor) });
  const page = toPage(rows, q.limit);
  const legacy = deps.settings.securityMode === "legacy";
  return {
    items: page.items.map((user) => toProfile(user, legacy || isSelfOrAdmin(actor, user.id))),
    nextCursor: page.nextCursor,
  };
}
