import type { Deps } from "../../deps.js";
import type { UserView } from "../../domain/user.js";
import { MarketplaceError } from "../../errors.js";
import { type VerifyEmailInput, verifyEmailSchema } from "../../schemas/verify-email.js";
import { sha256Hex } from "../../support/crypto.js";
import { validate } from "../../support/validate.js";
import { viewOf } from "../user-view.js";
import { isUsableToken } from "./usable-token.js";

/**
 * Follows the link mailed at sign-up: the token (single use, 24 hours) proves
 * the address. Nothing else changes: no key or session ends, since the link
 * only shows that the mailbox owner agrees with the account as it is.
 */
export async function verifyEmail(
  deps: Pick<Deps, "repos" | "clock">,
  input: VerifyEmailInput,
): Promise<UserView> {
  const data = validate(verifyEmailSchema, input);
  const now = deps.clock.now();
  const userId = await deps.repos.verificationTokens.consume(sha256Hex(data.token), now);
  const user = userId === null ? null : await deps.repos.users.markEmailVerified(userId, now);
  if (!user) throw new MarketplaceError("verification_token_invalid");
  return viewOf(deps, user);
}

/** Whether a verification token is usable now; consumes nothing (the page's GET). */
export async function checkVerificationToken(
  deps: Pick<Deps, "repos" | "clock">,
  input: VerifyEmailInput,
): Promise<boolean> {
  return isUsableToken(deps.repos.verificationTokens, input, deps.clock.now());
}
