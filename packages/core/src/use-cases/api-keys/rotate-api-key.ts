import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import { DEFAULT_ROTATION_GRACE_SECONDS, keyRefusal } from "../../domain/api-key.js";
import { MarketplaceError } from "../../errors.js";
import { type RotateApiKeyInput, rotateApiKeySchema } from "../../schemas/api-key.js";
import { type IdInput, idSchema } from "../../schemas/id.js";
import { validate } from "../../support/validate.js";
import { requireUser, requireUuid } from "../access.js";
import { type CreatedApiKey, grantable, newKey, requireLiveCredential } from "./create-api-key.js";

/**
 * Replaces a key with a new one of the same name, scopes and expiry; the old one keeps working for
 * `graceSeconds` (default a day, at most a week), so an integration can switch without a break.
 * The caller must own the key (an admin may deactivate anyone's key, but a rotation hands over a
 * secret that acts as its owner, so not even an admin rotates another's) and hold every scope it
 * has, since the answer carries a secret with them. A deactivated or expired key is not found:
 * there is nothing left to rotate.
 */
export async function rotateApiKey(
  deps: Pick<Deps, "repos" | "clock" | "ids" | "random">,
  actor: Actor,
  input: IdInput & RotateApiKeyInput,
): Promise<CreatedApiKey> {
  const caller = requireUser(actor);
  const { id } = validate(idSchema, input);
  const data = validate(rotateApiKeySchema, input);
  const key = await deps.repos.apiKeys.findById(requireUuid(id));
  const now = deps.clock.now();
  if (!key || key.userId !== caller.user.id || keyRefusal(key, now) !== null) {
    throw new MarketplaceError("key_not_found");
  }
  if (key.scopes !== null) grantable(caller, key.scopes);
  else if (caller.scopes !== undefined) {
    throw new MarketplaceError(
      "insufficient_scope",
      "Only an unrestricted credential may rotate an unrestricted key",
    );
  }
  const replacement = newKey(deps, key.userId, key, now);
  const graceMs = (data.graceSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS) * 1000;
  const rotated = await deps.repos.unitOfWork.run(async (repos) => {
    await requireLiveCredential(repos, caller, now);
    return repos.apiKeys.rotate(key.id, replacement.apiKey, new Date(now.getTime() + graceMs), now);
  });
  if (!rotated) throw new MarketplaceError("key_not_found");
  return replacement;
}
