import * as v from "valibot";
import type { ResetTokenRepository } from "../../ports/reset-token-repository.js";
import { verifyEmailSchema } from "../../schemas/verify-email.js";
import { sha256Hex } from "../../support/crypto.js";

/**
 * Whether the token of a link page is usable now in `store`; consumes nothing.
 * A page's GET only asks whether to show the form: a malformed token is "no",
 * not an error.
 */
export async function isUsableToken(
  store: Pick<ResetTokenRepository, "isValid">,
  input: unknown,
  now: Date,
): Promise<boolean> {
  const result = v.safeParse(verifyEmailSchema, input);
  if (!result.success) return false;
  return store.isValid(sha256Hex(result.output.token), now);
}
