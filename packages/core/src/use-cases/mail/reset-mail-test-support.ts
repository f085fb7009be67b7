/** Set-up shared by the password-reset mail tests (request-password-reset, update-password, dispatch-due). */
import type { Settings } from "../../deps.js";
import { createMarketplace } from "../../marketplace.js";
import { createTestDeps } from "../../testing/fakes/deps.js";
import { KIT_PASSWORD as PASSWORD } from "../../testing/use-case-kit.js";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** A marketplace on fresh in-memory deps whose public URL the reset links carry. */
export function setup(settings: Partial<Settings> = {}) {
  const deps = createTestDeps({ settings: { publicUrl: "https://market.example.com", ...settings } });
  return { deps, market: createMarketplace(deps) };
}

export type Setup = ReturnType<typeof setup>;

/** The token of the n-th recorded reset mail (0-based). */
export function tokenOf({ deps }: Setup, n = 0): string {
  const mail = deps.mailer.ofKind("password_reset")[n];
  if (!mail) throw new Error(`no reset mail #${n} was sent`);
  const token = new URL(mail.resetUrl).searchParams.get("token");
  if (!token) throw new Error("the reset URL carries no token");
  return token;
}

/** Signs up, then sends and forgets the sign-up's verification mail: these tests count reset mail. */
export async function signUpQuietly(s: Setup, email: string) {
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
