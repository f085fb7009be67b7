import { expect } from "vitest";
import type { Deps, Settings } from "../deps.js";
import type { Actor } from "../domain/actor.js";
import { type ErrorCode, isMarketplaceError } from "../errors.js";
import { createMarketplace, type Marketplace } from "../marketplace.js";
import { createTestDeps } from "./fakes/deps.js";

/** The password the kit's accounts use. */
export const KIT_PASSWORD = "secret-password";
/** The address logInAdmin ensures as an admin. */
const ADMIN_EMAIL = "admin@example.com";
/** An anonymous caller. */
export const ANON: Actor = { kind: "anonymous" };

/** Logs in through the marketplace; returns the token and the JWT actor it authenticates as. */
async function logIn(market: Marketplace, email: string, password: string) {
  const { token } = await market.auth.logIn({ email, password });
  return { token, actor: await market.auth.authenticate({ bearer: token }) };
}

/**
 * A use-case test's world on `deps`: the marketplace, the deps for inspection,
 * and callers signed in through the marketplace itself, as a client would be.
 */
export function setupWith<D extends Deps>(deps: D) {
  const market = createMarketplace(deps);
  return {
    deps,
    market,
    /** Signs up and logs in; returns the user, its token and a JWT actor. */
    async signUpAndLogIn(email: string, password = KIT_PASSWORD) {
      const user = await market.auth.signUp({ email, password });
      return { user, ...(await logIn(market, email, password)) };
    },
    /** Ensures admin@example.com is an admin; returns the user, its token and its JWT actor. */
    async logInAdmin() {
      const { user } = await market.admin.ensureAdmin({ email: ADMIN_EMAIL, password: KIT_PASSWORD });
      return { user, ...(await logIn(market, ADMIN_EMAIL, KIT_PASSWORD)) };
    },
  };
}

/** setupWith fresh in-memory deps (createTestDeps) under `settings`. */
export function setup(settings: Partial<Settings> = {}) {
  return setupWith(createTestDeps({ settings }));
}

/** What setup and setupWith return. */
export type UseCaseKit = ReturnType<typeof setup>;

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
