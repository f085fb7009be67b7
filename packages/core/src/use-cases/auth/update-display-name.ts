import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { UserView } from "../../domain/user.js";
import { MarketplaceError } from "../../errors.js";
import { type UpdateUserInput, updateUserSchema } from "../../schemas/update-user.js";
import { validate } from "../../support/validate.js";
import { requireJwtUser } from "../access.js";
import { viewOf } from "../user-view.js";

/** Changes the caller's display name (JWT only). Other body fields are ignored. */
export async function updateDisplayName(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  input: UpdateUserInput,
): Promise<UserView> {
  const { user } = requireJwtUser(actor);
  const data = validate(updateUserSchema, input);
  const updated = await deps.repos.users.updateProfile(user.id, { displayName: data.displayName });
  if (!updated) throw new MarketplaceError("unauthenticated");
  return viewOf(deps, updated);
}
