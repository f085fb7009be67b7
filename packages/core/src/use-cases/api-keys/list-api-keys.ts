import type { Deps } from "../../deps.js";
import { type Actor, isAdmin } from "../../domain/actor.js";
import type { ApiKey } from "../../domain/api-key.js";
import type { Page } from "../../domain/page.js";
import { type PageQueryInput, pageQuerySchema } from "../../schemas/page-query.js";
import { decodeCursor, toPage } from "../../support/cursor.js";
import { validate } from "../../support/validate.js";
import { requireUser } from "../access.js";

/** The caller's keys, or every key for an admin; newest first. Values are never returned. */
export async function listApiKeys(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  query: PageQueryInput,
): Promise<Page<ApiKey>> {
  const { user } = requireUser(actor);
  const q = validate(pageQuerySchema, query);
  const rows = await deps.repos.apiKeys.list(isAdmin(actor) ? undefined : user.id, {
    limit: q.limit + 1,
    before: decodeCursor(q.cursor),
  });
  return toPage(rows, q.limit);
}
