import type { Deps } from "../../deps.js";

/**
 * Gives an account a new password and ends the credentials held before it:
 * every JWT (the token version is bumped in the same write as the password)
 * and, with `endKeys`, every API key; then records the address as proven.
 * False when the user does not exist.
 *
 * The order is what makes it safe. The token version moves first, and a key
 * created meanwhile checks it after its insert (createApiKey), so a key minted
 * by a credential ended here either is stored before the keys are ended (and
 * ends with them) or sees the new version and ends itself. The proof comes
 * last: a run stopped half-way leaves the address unproven, and the next
 * reset ends the keys again.
 */
export async function reclaimAccount(
  deps: Pick<Deps, "repos">,
  userId: string,
  options: { passwordHash: string; endKeys: boolean; now: Date },
): Promise<boolean> {
  if (!(await deps.repos.users.setPasswordHash(userId, options.passwordHash, { revokeTokens: true }))) {
    return false;
  }
  if (options.endKeys) await deps.repos.apiKeys.deactivateByUser(userId);
  return (await deps.repos.users.markEmailVerified(userId, options.now)) !== null;
}
