import type { Deps } from "../../deps.js";
import { normalizeEmail, type UserView } from "../../domain/user.js";
import { isMarketplaceError, MarketplaceError } from "../../errors.js";
import { type LogInInput, logInSchema } from "../../schemas/log-in.js";
import { validate } from "../../support/validate.js";
import { viewOf } from "../user-view.js";
import { dummyHash } from "./dummy-hash.js";

/** A signed-in user and their 7-day JWT. */
export interface LogInResult {
  user: UserView;
  token: string;
}

/**
 * Exchanges email and password for a JWT. An unknown address and a wrong
 * password get the same error after the same hashing work, so neither the
 * body nor the time tells which accounts exist. Both verify as `"login"`; a
 * hasher whose login queue is full refuses with `service_unavailable` (503).
 */
export async function logIn(
  deps: Pick<Deps, "repos" | "hasher" | "tokens" | "clock">,
  input: LogInInput,
): Promise<LogInResult> {
  const data = validate(logInSchema, input);
  const user = await deps.repos.users.findByEmail(normalizeEmail(data.email));
  if (!user?.passwordHash) {
    await deps.hasher.verify(await dummyHash(deps.hasher), data.password, "login");
    throw new MarketplaceError("invalid_credentials");
  }
  if (!(await deps.hasher.verify(user.passwordHash, data.password, "login")))
    throw new MarketplaceError("invalid_credentials");
  if (deps.hasher.needsRehash(user.passwordHash)) await upgradeHash(deps, user.id, data.password);
  const token = await deps.tokens.issue({
    sub: user.id,
    email: user.email,
    isAdmin: user.isAdmin,
    version: user.tokenVersion,
  });
  return { user: await viewOf(deps, user), token };
}

/**
 * Redoes an old hash with today's parameters. Raising the cost is not a
 * password change: sessions stay. A hasher too busy for new hashes (503) does
 * not fail the login: the upgrade waits for the next one.
 */
async function upgradeHash(deps: Pick<Deps, "repos" | "hasher">, userId: string, password: string) {
  let hash: string;
  try {
    hash = await deps.hasher.hash(password);
  } catch (error) {
    if (isMarketplaceError(error, "service_unavailable")) return;
    throw error;
  }
  await deps.repos.users.setPasswordHash(userId, hash, { revokeTokens: false });
}
