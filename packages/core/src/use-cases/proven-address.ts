import type { Settings } from "../deps.js";
import type { User } from "../domain/user.js";
import { MarketplaceError } from "../errors.js";

/**
 * With REQUIRE_VERIFIED_EMAIL (`settings.requireVerifiedEmail`), the acts an
 * account squatter would want (API keys, listings, messages) need a proven
 * address: `email_unverified` otherwise. Without it, nothing is asked.
 */
export function requireProvenAddress(
  settings: Pick<Settings, "requireVerifiedEmail">,
  user: Pick<User, "emailVerifiedAt">,
): void {
  if (settings.requireVerifiedEmail && user.emailVerifiedAt === null) {
    throw new MarketplaceError("email_unverified");
  }
}
