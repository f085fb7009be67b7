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

/**
 * A value passed where the command types forbid it, as a plain-JS embedder
 * could: typed as whatever the call expects, so a test can check that the use
 * case itself refuses it (`invalid_input`) or copes with it.
 */
export function untyped<T>(value: unknown): T {
  return value as T;
}

/** Asserts the promise rejects with a MarketplaceError of `code` (anything else fails the comparison). */
export async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  const outcome = await promise.then(
    (value: unknown) => ({ resolved: value }),
    (error: unknown) => (isMarketplaceError(error) ? { code: error.code } : { error }),
  );
  expect(outcome).toEqual({ code });
}

/**
 * Asserts the promise rejects with `invalid_input` about `field` (the error's
 * `field`, in the command's camelCase words) and, when given, with `message`.
 */
export async function expectInvalidField(
  promise: Promise<unknown>,
  field: string,
  message?: string,
): Promise<void> {
  const outcome = await promise.then(
    (value: unknown) => ({ resolved: value }),
    (error: unknown) =>
      isMarketplaceError(error)
        ? { code: error.code, field: error.field, message: message === undefined ? undefined : error.message }
        : { error },
  );
  expect(outcome).toEqual({ code: "invalid_input", field, message });
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

/**
 * Follows `nextCursor` from the first page until it is null or `maxPages` pages were read: the
 * ids seen, in order, and how many pages it took.
 */
export async function collectPages(
  read: (cursor: { cursor?: string }) => Promise<{ items: { id: string }[]; nextCursor: string | null }>,
  maxPages: number,
): Promise<{ seen: string[]; pages: number }> {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await read(cursor === null ? {} : { cursor });
    seen.push(...page.items.map((item) => item.id));
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== null && pages < maxPages);
  return { seen, pages };
}

export type { Marketplace };
