import type { Deps } from "../../deps.js";
import { normalizeEmail } from "../../domain/user.js";
import { type RequestPasswordResetInput, requestPasswordResetSchema } from "../../schemas/password-reset.js";
import { validate } from "../../support/validate.js";
import { noteResetRequest } from "../mail/reset-requests.js";

/**
 * Takes a reset request for any well-formed address. The answer must not tell
 * known addresses from unknown ones, by its body or by its time, so nothing
 * here depends on the account: the request is only stored, durably before the
 * answer, and the next mail round (`mail.dispatchDue`) looks the address up,
 * applies the per-address limit, and queues and sends the mail with its token.
 */
export async function requestPasswordReset(
  deps: Pick<Deps, "repos" | "clock" | "ids">,
  input: RequestPasswordResetInput,
): Promise<void> {
  const data = validate(requestPasswordResetSchema, input);
  await noteResetRequest(deps, normalizeEmail(data.email));
}
