import type { Deps } from "../../deps.js";
import { MarketplaceError } from "../../errors.js";
import { type UpdatePasswordInput, updatePasswordSchema } from "../../schemas/password-reset.js";
import type { VerifyEmailInput } from "../../schemas/verify-email.js";
import { sha256Hex } from "../../support/crypto.js";
import { validate } from "../../support/validate.js";
import { reclaimAccount } from "./reclaim-account.js";
import { isUsableToken } from "./usable-token.js";

/**
 * Sets a new password with a reset token: single use, one hour. Ends every
 * outstanding reset token of the user and every JWT issued before. A reset
 * proves the address, and ends every API key made before the address was
 * first proven (all of them when it never was, however it is proven later):
 * whoever registered an address they do not own may have minted them. Keys
 * made after a proof survive later resets.
 */
export async function updatePassword(
  deps: Pick<Deps, "repos" | "hasher" | "clock">,
  input: UpdatePasswordInput,
): Promise<void> {
  const data = validate(updatePasswordSchema, input);
  const tokenHash = sha256Hex(data.token);
  // The token is checked before any hashing, so a made-up one costs no
  // argon2 work: nobody can queue hashes in front of real logins.
  if (!(await deps.repos.resetTokens.isValid(tokenHash, deps.clock.now()))) {
    throw new MarketplaceError("reset_token_invalid");
  }
  // Hashed before the token is consumed, so a failure here does not burn it.
  const passwordHash = await deps.hasher.hash(data.newPassword);
  const now = deps.clock.now();
  const userId = await deps.repos.resetTokens.consume(tokenHash, now);
  if (!userId) throw new MarketplaceError("reset_token_invalid");
  const reclaimed = await reclaimAccount(deps, userId, { passwordHash, endKeys: "before-proof", now });
  if (!reclaimed) throw new MarketplaceError("reset_token_invalid");
  await deps.repos.resetTokens.deleteByUser(userId);
}

/** Whether a reset token is usable now; consumes nothing (the reset page's GET). */
export async function checkResetToken(
  deps: Pick<Deps, "repos" | "clock">,
  input: VerifyEmailInput,
): Promise<boolean> {
  return isUsableToken(deps.repos.resetTokens, input, deps.clock.now());
}
