import type { Deps } from "../../deps.js";
import { defaultDisplayName, normalizeEmail, type User, type UserView } from "../../domain/user.js";
import { MarketplaceError } from "../../errors.js";
import { signUpSchema } from "../../schemas/sign-up.js";
import { validate } from "../../support/validate.js";
import { viewOf } from "../user-view.js";

/** Creates an account (and its profile). A taken address, in any case, is `email_taken`. */
export async function signUp(
  deps: Pick<Deps, "repos" | "hasher" | "clock" | "ids">,
  input: unknown,
): Promise<UserView> {
  const data = validate(signUpSchema, input);
  const email = normalizeEmail(data.email);
  // Cheap pre-check so a taken address costs no hashing; the unique index decides races.
  if (await deps.repos.users.findByEmail(email)) throw new MarketplaceError("email_taken");
  const now = deps.clock.now();
  const user: User = {
    id: deps.ids.newId(now),
    email,
    displayName: data.display_name ?? defaultDisplayName(email),
    isAdmin: false,
    accountType: "personal",
    passwordHash: await deps.hasher.hash(data.password),
    tokenVersion: 0,
    createdAt: now,
  };
  await deps.repos.users.insert(user);
  return viewOf(deps, user);
}
