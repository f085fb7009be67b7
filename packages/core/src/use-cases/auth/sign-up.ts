import type { Deps } from "../../deps.js";
import { defaultDisplayName, normalizeEmail, type User, type UserView } from "../../domain/user.js";
import { MarketplaceError } from "../../errors.js";
import { type SignUpInput, signUpSchema } from "../../schemas/sign-up.js";
import { validate } from "../../support/validate.js";
import { viewOf } from "../user-view.js";

/**
 * Creates an account (and its profile), its address not yet proven, and
 * queues the mail with the verification link. A taken address, in any case,
 * is `email_taken`.
 */
export async function signUp(
  deps: Pick<Deps, "repos" | "hasher" | "clock" | "ids" | "random">,
  input: SignUpInput,
): Promise<UserView> {
  const data = validate(signUpSchema, input);
  const email = normalizeEmail(data.email);
  // Cheap pre-check so a taken address costs no hashing; the unique index decides races.
  if (await deps.repos.users.findByEmail(email)) throw new MarketplaceError("email_taken");
  const now = deps.clock.now();
  const user: User = {
    id: deps.ids.newId(now),
    email,
    displayName: data.displayName ?? defaultDisplayName(deps.random),
    isAdmin: false,
    accountType: "personal",
    passwordHash: await deps.hasher.hash(data.password),
    tokenVersion: 0,
    emailVerifiedAt: null,
    createdAt: now,
  };
  await deps.repos.users.insert(user);
  // Queued like the reset mail: the dispatcher mints the token when it sends.
  await deps.repos.mailQueue.enqueue({
    id: deps.ids.newId(now),
    userId: user.id,
    kind: "email_verification",
    createdAt: now,
  });
  return viewOf(deps, user);
}
