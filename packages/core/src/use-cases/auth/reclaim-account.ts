import type { Deps } from "../../deps.js";
import type { User } from "../../domain/user.js";

/** Which keys a reclaim ends: every one, or those made before the address was proven. */
export type KeysToEnd = "all" | "before-proof";

/**
 * Gives an account a new password and ends the credentials held before it:
 * every JWT and session (the token version is bumped with the password) and
 * the keys `endKeys` names (`before-proof`: those created before the address
 * was first proven, every key when it never was); then records the address as
 * proven. Answers the user as it was before; null when it does not exist.
 *
 * One unit of work holding the user's row: key creation holds the same row
 * while it checks its maker's credential and stores the key (createApiKey), so
 * a key is either stored before the reclaim, and ended by it, or refused after
 * it. No interleaving leaves a key minted by an ended credential.
 */
export async function reclaimAccount(
  deps: Pick<Deps, "repos">,
  userId: string,
  options: { passwordHash: string; endKeys: KeysToEnd; now: Date },
): Promise<User | null> {
  return deps.repos.unitOfWork.run(async (repos) => {
    const user = await repos.users.holdById(userId);
    if (!user || !(await repos.users.setPasswordHash(userId, options.passwordHash, { revokeTokens: true }))) {
      return null;
    }
    const proof = options.endKeys === "all" ? null : user.emailVerifiedAt;
    await repos.apiKeys.deactivateByUser(userId, proof ?? undefined);
    await repos.users.markEmailVerified(userId, options.now);
    return user;
  });
}
