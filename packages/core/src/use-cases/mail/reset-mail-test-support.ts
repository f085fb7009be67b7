/** Set-up shared by the password-reset mail tests (request-password-reset, update-password, dispatch-due). */
import type { Settings } from "../../deps.js";
import { setup as kitSetup, KIT_PASSWORD as PASSWORD, type UseCaseKit } from "../../testing/use-case-kit.js";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** The kit's marketplace, whose public URL the reset links carry. */
export function setup(settings: Partial<Settings> = {}) {
  return kitSetup({ publicUrl: "https://market.example.com", ...settings });
}

/** The token of the n-th recorded reset mail (0-based). */
export function tokenOf({ deps }: UseCaseKit, n = 0): string {
  const mail = deps.mailer.ofKind("password_reset")[n];
  if (!mail) throw new Error(`no reset mail #${n} was sent`);
  const token = new URL(mail.resetUrl).searchParams.get("token");
  if (!token) throw new Error("the reset URL carries no token");
  return token;
}

/** Signs up, then sends and forgets the sign-up's verification mail: these tests count reset mail. */
export async function signUpQuietly(s: UseCaseKit, email: string) {
  const user = await s.market.auth.signUp({ email, password: PASSWORD });
  await s.market.mail.dispatchDue();
  s.deps.mailer.sent.length = 0;
  return user;
}

/** A marketplace as setup() makes it, with reset@example.com signed up quietly. */
export async function withUser(settings: Partial<Settings> = {}) {
  const s = setup(settings);
  const user = await signUpQuietly(s, "reset@example.com");
  return { ...s, user };
}
