import type { Deps } from "../../deps.js";
import { normalizeEmail, type UserView } from "../../domain/user.js";
import { MarketplaceError } from "../../errors.js";
import { logInSchema } from "../../schemas/log-in.js";
import { validate } from "../../support/validate.js";
import { viewOf } from "../user-view.js";
import { dummyHash } from "./dummy-hash.js";

/**
 * Exchanges email and password for a JWT. An unknown address and a wrong
 * password get the same error after the same hashing work, so neither the
 * body nor the time tells which accounts exist.
 */
export async function logIn(
  deps: Pick<Deps, "repos" | "hasher" | "tokens" | "clock">,
  input: unknown,
): Promise<{ user: UserView; token: string }> {
  const data = validate(logInSchema, input);
  const user = await deps.repos.users.findByEmail(normalizeEmail(data.email));
  if (!user?.passwordHash) {
    await deps.hasher.verify(await dummyHash(deps.hasher), data.password);
    throw new MarketplaceError("invalid_credentials");
  }
  if (!(await deps.hasher.verify(user.passwordHash, data.password)))
    throw new MarketplaceError("invalid_credentials");
  if (deps.hasher.needsRehash(user.passwordHash)) {
    // Raising the cost of old hashes is not a password change: sessions stay.
    await deps.repos.users.setPasswordHash(user.id, await deps.hasher.hash(data.password), {
      revokeTokens: false,
    });
  }
  const token = await deps.tokens.issue({
    sub: user.id,
    email: user.email,
    isAdmin: user.isAdmin,
    version: user.tokenVersion,
  });
  return { user: await viewOf(deps, user), token };
}
