import type { Deps } from "../../deps.js";
import { RESET_MAILS_PER_ADDRESS_PER_HOUR } from "../../domain/limits.js";
import { normalizeEmail } from "../../domain/user.js";
import { requestPasswordResetSchema } from "../../schemas/password-reset.js";
import { validate } from "../../support/validate.js";

const HOUR_MS = 60 * 60 * 1000;

/**
 * Queues a reset mail for a known address. The answer is the same for known
 * and unknown addresses and when the per-address limit holds the mail back,
 * so the endpoint neither reveals accounts nor floods a mailbox. No token is
 * made here: the dispatcher mints it when it sends.
 */
export async function requestPasswordReset(
  deps: Pick<Deps, "repos" | "clock" | "ids">,
  input: unknown,
): Promise<void> {
  const data = validate(requestPasswordResetSchema, input);
  const user = await deps.repos.users.findByEmail(normalizeEmail(data.email));
  if (!user) return;
  const now = deps.clock.now();
  // The limit is checked in the same atomic step as the insert, so a burst of
  // concurrent requests (several processes included) cannot pass it.
  await deps.repos.mailQueue.enqueue(
    { id: deps.ids.newId(now), userId: user.id, kind: "password_reset", createdAt: now },
    { since: new Date(now.getTime() - HOUR_MS), max: RESET_MAILS_PER_ADDRESS_PER_HOUR },
  );
}
