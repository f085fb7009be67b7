import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { MarketplaceError } from "../../errors.js";
import { type IdInput, idSchema } from "../../schemas/id.js";
import { validate } from "../../support/validate.js";
import { requireUser, requireUuid } from "../access.js";

/**
 * Deactivates a key. Another user's key is reported as not found (its
 * existence is not revealed), except to an admin, who may deactivate any key.
 */
export async function deactivateApiKey(
  deps: Pick<Deps, "repos">,
  actor: Actor,
  input: IdInput,
): Promise<void> {
  const { user } = requireUser(actor);
  const { id } = validate(idSchema, input);
  const key = await deps.repos.apiKeys.findById(requireUuid(id));
  if (!key || (key.userId !== user.id && !user.isAdmin)) throw new MarketplaceError("key_not_found");
  await deps.repos.apiKeys.deactivate(key.id);
}
