import { describe, expect, it } from "vitest";
import { ERROR_MESSAGES, type ErrorCode, isMarketplaceError, type MarketplaceError } from "../../errors.js";
import { sha256Hex } from "../../support/crypto.js";
import { buildApiKey, buildMessage, buildUser, testId } from "../builders.js";
import {
  at,
  type ContractContext,
  HOUR,
  listingOf,
  NO_LIMIT,
  seedListings,
  seedUser,
  T0,
} from "./context.js";

/**
 * The rejection of `work`: a MarketplaceError of `code` whose message is the
 * code's own wire message, so no driver text (SQL, table or constraint names)
 * reaches a caller whatever the backend.
 */
async function rejection(work: Promise<unknown>, code: ErrorCode): Promise<MarketplaceError> {
  const error = await work.then(
    () => new Error("resolved, expected a rejection"),
    (reason: unknown) => reason,
  );
  expect(isMarketplaceError(error) ? error.code : error).toBe(code);
  const failure = error as MarketplaceError;
  expect(failure.message).toBe(ERROR_MESSAGES[code]);
  return failure;
}

/**
 * How every backend reports a write the schema refuses, through the ports
 * only: the translation of driver errors that each adapter's db-errors.ts
 * does, pinned so that memory, SQLite and PostgreSQL agree on it.
 */
export function storageErrorCases(ctx: ContractContext): void {
  describe("storage errors", () => {
    it("a row for a user that does not exist is user_not_found, and nothing is stored", async () => {
      const repos = ctx.repos();
      const ghost = buildUser({ createdAt: T0 }); // never inserted
      const listing = listingOf(ghost, 0);
      await rejection(repos.listings.insertWithinSlots(listing, NO_LIMIT), "user_not_found");
      expect(await repos.listings.findById(listing.id)).toBeNull();

      const key = buildApiKey({ userId: ghost.id, createdAt: T0 });
      await rejection(repos.apiKeys.insert(key), "user_not_found");
      expect(await repos.apiKeys.findById(key.id)).toBeNull();

      for (const store of ["resetTokens", "verificationTokens"] as const) {
        const tokenHash = sha256Hex(`ghost ${store}`);
        await rejection(
          repos[store].insert({ tokenHash, userId: ghost.id, expiresAt: at(HOUR), createdAt: T0 }),
          "user_not_found",
        );
        expect(await repos[store].isValid(tokenHash, T0)).toBe(false);
      }

      const job = { id: testId(T0), userId: ghost.id, kind: "password_reset" as const, createdAt: T0 };
      await rejection(repos.mailQueue.enqueue(job), "user_not_found");
      await rejection(repos.mailQueue.enqueue(job, { since: T0, max: 3 }), "user_not_found");
      expect(await repos.mailQueue.findById(job.id)).toBeNull();
    });

    it("a user deleted before the write (a concurrent delete) gives user_not_found too", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      expect(await repos.users.deleteCascade(user.id)).toBe(true);
      await rejection(repos.listings.insertWithinSlots(listingOf(user, 1), NO_LIMIT), "user_not_found");
      await rejection(
        repos.apiKeys.insert(buildApiKey({ userId: user.id, createdAt: T0 })),
        "user_not_found",
      );
      expect(await repos.listings.countActiveByUser(user.id, T0)).toBe(0);
      expect(await repos.apiKeys.list(user.id, { limit: 10 })).toEqual([]);
    });

    it("a full author's insert answers false before any user check", async () => {
      // The slot count comes first in every backend: a missing user has no slots to fill.
      const repos = ctx.repos();
      const ghost = buildUser({ createdAt: T0 });
      expect(await repos.listings.insertWithinSlots(listingOf(ghost, 0), { maxSlots: 0, now: T0 })).toBe(
        false,
      );
    });

    it("messages hold no foreign keys: a message about a missing listing, between missing users, is stored", async () => {
      const repos = ctx.repos();
      const author = await seedUser(repos);
      const [listing] = await seedListings(repos, [listingOf(author, 0)]);
      expect(await repos.listings.delete(listing!.id)).toBe(true);
      const aboutDeleted = buildMessage({ listingId: listing!.id, receiverId: author.id, createdAt: at(1) });
      const betweenGhosts = buildMessage({ createdAt: at(2) }); // listing and both parties made up
      await repos.messages.insert(aboutDeleted);
      await repos.messages.insert(betweenGhosts);
      expect(await repos.messages.list(author.id, "received", { limit: 10 })).toEqual([aboutDeleted]);
      expect(await repos.messages.list(betweenGhosts.senderId, "sent", { limit: 10 })).toEqual([
        betweenGhosts,
      ]);
    });

    it("re-inserting a stored id or digest is internal_error, and the stored row is kept", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      await rejection(repos.users.insert({ ...user, email: "other.address@example.com" }), "internal_error");
      expect(await repos.users.findById(user.id)).toEqual(user);
      expect(await repos.users.findByEmail("other.address@example.com")).toBeNull();

      const [listing] = await seedListings(repos, [listingOf(user, 0)]);
      await rejection(
        repos.listings.insertWithinSlots({ ...listing!, title: "Second take" }, NO_LIMIT),
        "internal_error",
      );
      expect(await repos.listings.findById(listing!.id)).toEqual(listing);

      const key = buildApiKey({ userId: user.id, createdAt: T0 });
      await repos.apiKeys.insert(key);
      const sameId = buildApiKey({ id: key.id, userId: user.id, createdAt: T0 });
      await rejection(repos.apiKeys.insert(sameId), "internal_error");
      const sameDigest = buildApiKey({ keyHash: key.keyHash, userId: user.id, createdAt: at(1) });
      await rejection(repos.apiKeys.insert(sameDigest), "internal_error");
      expect(await repos.apiKeys.list(user.id, { limit: 10 })).toEqual([key]);

      const message = buildMessage({ receiverId: user.id, createdAt: T0 });
      await repos.messages.insert(message);
      await rejection(repos.messages.insert({ ...message, content: "Again" }), "internal_error");
      expect(await repos.messages.list(user.id, "received", { limit: 10 })).toEqual([message]);

      for (const store of ["resetTokens", "verificationTokens"] as const) {
        const token = {
          tokenHash: sha256Hex(`twice ${store}`),
          userId: user.id,
          expiresAt: at(HOUR),
          createdAt: T0,
        };
        await repos[store].insert(token);
        await rejection(repos[store].insert({ ...token, expiresAt: at(2 * HOUR) }), "internal_error");
        expect(await repos[store].isValid(token.tokenHash, at(HOUR))).toBe(false); // the first expiry holds
      }

      const job = { id: testId(T0), userId: user.id, kind: "password_reset" as const, createdAt: T0 };
      await repos.mailQueue.enqueue(job);
      await rejection(repos.mailQueue.enqueue({ ...job, kind: "email_verification" }), "internal_error");
      expect((await repos.mailQueue.findById(job.id))?.kind).toBe("password_reset");
    });
  });
}
