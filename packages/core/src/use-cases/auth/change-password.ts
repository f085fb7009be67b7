import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { MarketplaceError } from "../../errors.js";
import { type ChangePasswordInput, changePasswordSchema } from "../../schemas/change-password.js";
import { validate } from "../../support/validate.js";
import { requireJwtUser } from "../access.js";

/**
 * A signed-in user sets a new password by proving the current one. The token
 * version moves in the same write, so every JWT and browser session issued
 * before ends (the caller opens a new one to stay signed in); API keys stay,
 * since they are managed one by one. A hasher too busy for confirmations
 * refuses with `service_unavailable` (503) and nothing changes.
 */
export async function changePassword(
  deps: Pick<Deps, "repos" | "hasher">,
  actor: Actor,
  input: ChangePasswordInput,
): Promise<void> {
  const { user } = requireJwtUser(actor);
  const data = validate(changePasswordSchema, input);
  const stored = await deps.repos.users.findById(user.id);
  // A confirmation, not a login: changes run at the write quota, far above the
  // login one, so the hasher keeps them out of the queue in front of logins.
  if (
    !stored?.passwordHash ||
    !(await deps.hasher.verify(stored.passwordHash, data.currentPassword, "confirm"))
  ) {
    throw new MarketplaceError("invalid_credentials", "The current password is wrong", {
      field: "currentPassword",
    });
  }
  const hash = await deps.hasher.hash(data.newPassword);
  if (!(await deps.repos.users.setPasswordHash(user.id, hash, { revokeTokens: true }))) {
    throw new MarketplaceError("unauthenticated");
  }
}
