import { expect } from "vitest";
import type { Settings } from "../deps.js";
import type { Actor } from "../domain/actor.js";
import { type ErrorCode, isMarketplaceError } from "../errors.js";
import { createMarketplace, type Marketplace } from "../marketplace.js";
import { createTestDeps } from "./fakes/deps.js";

/** The password the kit's accounts use. */
export const KIT_PASSWORD = "secret-password";
/** An anonymous caller. */
export const ANON: Actor = { kind: "anonymous" };

/** A marketplace on fresh in-memory deps, with the deps for inspection. */
export function setupMarketplace(settings: Partial<Settings> = {}) {
  const deps = createTestDeps({ settings });
  return { deps, market: createMarketplace(deps) };
}

/** Asserts the promise rejects with a MarketplaceError of `code` (anything else fails the comparison). */
export async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  const outcome = await promise.then(
    (value: unknown) => ({ resolved: value }),
    (error: unknown) => (isMarketplaceError(error) ? { code: error.code } : { error }),
  );
  expect(outcome).toEqual({ code });
}

/** Signs up and logs in; returns the user and a JWT actor. */
export async function signUpAndLogIn(market: Marketplace, email: string, password = KIT_PASSWORD) {
  const user = await market.auth.signUp({ email, password });
  const { token } = await market.auth.logIn({ email, password });
  return { user, token, actor: await market.auth.authenticate({ bearer: token }) };
}

/** Ensures admin@example.com is an admin; returns the user and its JWT actor. */
export async function logInAdmin(market: Marketplace) {
  const { user } = await market.admin.ensureAdmin({ email: "admin@example.com", password: KIT_PASSWORD });
  const { token } = await market.auth.logIn({ email: "admin@example.com", password: KIT_PASSWORD });
  return { user, token, actor: await market.auth.authenticate({ bearer: token }) };
}

export type { Marketplace };
