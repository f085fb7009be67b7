import type { Deps } from "../../deps.js";
import { MarketplaceError } from "../../errors.js";
import { updatePasswordSchema } from "../../schemas/password-reset.js";
import { sha256Hex } from "../../support/crypto.js";
import { validate } from "../../support/validate.js";

/**
 * Sets a new password with a reset token: single use, one hour. Ends every
 * outstanding reset token of the user and every JWT issued before.
 */
export async function updatePassword(
  deps: Pick<Deps, "repos" | "hasher" | "clock">,
  input: unknown,
): Promise<void> {
  const data = validate(updatePasswordSchema, input);
  // Hash first so a valid token is not burnt by a failure after consuming it.
  const passwordHash = await deps.hasher.hash(data.new_password);
  const userId = await deps.repos.resetTokens.consume(sha256Hex(data.token), deps.clock.now());
  if (!userId) throw new MarketplaceError("reset_token_invalid");
  if (!(await deps.repos.users.setPasswordHash(userId, passwordHash, { revokeTokens: true }))) {
    throw new MarketplaceError("reset_token_invalid");
  }
  await deps.repos.resetTokens.deleteByUser(userId);
}

/** Whether a reset token is usable now; consumes nothing (the reset page's GET). */
export async function checkResetToken(deps: Pick<Deps, "repos" | "clock">, token: string): Promise<boolean> {
  if (token.length === 0 || token.length > 512) return false;
  return deps.repos.resetTokens.isValid(sha256Hex(token), deps.clock.now());
}
