import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { Credentials } from "../../marketplace.js";
import { authenticate } from "./authenticate.js";
import { dummyHash } from "./dummy-hash.js";
import { logIn } from "./log-in.js";
import { me } from "./me.js";
import { requestPasswordReset } from "./request-password-reset.js";
import { signUp } from "./sign-up.js";
import { updateDisplayName } from "./update-display-name.js";
import { checkResetToken, updatePassword } from "./update-password.js";
import { checkVerificationToken, verifyEmail } from "./verify-email.js";

/** The auth use cases bound to deps. */
export function bindAuth(deps: Deps) {
  // Made up front so the first login for an unknown address costs no more than later ones.
  void dummyHash(deps.hasher).catch(() => undefined);
  return {
    signUp: (input: unknown) => signUp(deps, input),
    logIn: (input: unknown) => logIn(deps, input),
    authenticate: (credentials: Credentials) => authenticate(deps, credentials),
    me: (actor: Actor) => me(deps, actor),
    requestPasswordReset: (input: unknown) => requestPasswordReset(deps, input),
    updatePassword: (input: unknown) => updatePassword(deps, input),
    checkResetToken: (token: string) => checkResetToken(deps, token),
    verifyEmail: (input: unknown) => verifyEmail(deps, input),
    checkVerificationToken: (token: string) => checkVerificationToken(deps, token),
  };
}

/** The user use cases bound to deps. */
export function bindUsers(deps: Deps) {
  return { updateDisplayName: (actor: Actor, input: unknown) => updateDisplayName(deps, actor, input) };
}
