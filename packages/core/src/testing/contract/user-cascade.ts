import { describe, expect, it } from "vitest";
import type { User } from "../../domain/user.js";
import type { Repositories } from "../../ports/repositories.js";
import { sha256Hex } from "../../support/crypto.js";
import { buildApiKey, buildMessage, buildUser, testId } from "../builders.js";
import { at, type ContractContext, HOUR, ids, listingOf, seedListings, seedUser, T0 } from "./context.js";

/** A user with one of everything; `peer` is the other party of their messages. */
async function seedFootprint(repos: Repositories, user: User, peer: User, offset: number) {
  const [listing] = await seedListings(repos, [
    listingOf(user, offset),
    listingOf(user, offset + 1, { status: "paused" }),
  ]);
  const key = buildApiKey({ userId: user.id, createdAt: at(offset) });
  await repos.apiKeys.insert(key);
  const tokenHash = sha256Hex(`reset-token-of-${user.id}`);
  await repos.resetTokens.insert({ tokenHash, userId: user.id, expiresAt: at(HOUR), createdAt: T0 });
  const verificationHash = sha256Hex(`verification-token-of-${user.id}`);
  await repos.verificationTokens.insert({
    tokenHash: verificationHash,
    userId: user.id,
    expiresAt: at(HOUR),
    createdAt: T0,
  });
  const jobId = testId(at(offset));
  await repos.mailQueue.enqueue({
    id: jobId,
    userId: user.id,
    kind: "password_reset",
    createdAt: at(offset),
  });
  const about = { listingId: listing!.id, createdAt: at(offset + 2) };
  const sent = buildMessage({ ...about, senderId: user.id, receiverId: peer.id });
  const received = buildMessage({
    ...about,
    senderId: peer.id,
    receiverId: user.id,
    createdAt: at(offset + 3),
  });
  await repos.messages.insert(sent);
  await repos.messages.insert(received);
  return { key, tokenHash, verificationHash, jobId, sent, received };
}

/** Cases of UserRepository.deleteCascade. */
export function userCascadeCases(ctx: ContractContext): void {
  describe("users.deleteCascade", () => {
    it("removes the user's listings, keys, reset and verification tokens and mail jobs, keeps messages", async () => {
      const repos = ctx.repos();
      const [gone, kept] = [await seedUser(repos), await seedUser(repos)];
      const theirs = await seedFootprint(repos, gone, kept, 0);
      const ours = await seedFootprint(repos, kept, gone, 100);

      expect(await repos.users.deleteCascade(gone.id)).toBe(true);

      expect(await repos.users.findById(gone.id)).toBeNull();
      expect(await repos.users.findByEmail(gone.email)).toBeNull();
      const remaining = await repos.listings.listAll({ limit: 100 });
      expect(remaining.map((listing) => listing.userId)).toEqual([kept.id, kept.id]);
      expect(await repos.apiKeys.findById(theirs.key.id)).toBeNull();
      expect(await repos.apiKeys.findByHash(theirs.key.keyHash)).toBeNull();
      expect(await repos.resetTokens.isValid(theirs.tokenHash, T0)).toBe(false);
      expect(await repos.resetTokens.consume(theirs.tokenHash, T0)).toBeNull();
      expect(await repos.verificationTokens.consume(theirs.verificationHash, T0)).toBeNull();
      expect(await repos.mailQueue.findById(theirs.jobId)).toBeNull();
      expect(await repos.mailQueue.countSince(gone.id, "password_reset", new Date(0))).toBe(0);

      // Messages outlive either party.
      const fromGone = [ours.received.id, theirs.sent.id];
      expect(ids(await repos.messages.list(kept.id, "received", { limit: 10 }))).toEqual(fromGone);
      expect(ids(await repos.messages.list(gone.id, "sent", { limit: 10 }))).toEqual(fromGone);
      expect(ids(await repos.messages.list(gone.id, "received", { limit: 10 }))).toEqual([
        ours.sent.id,
        theirs.received.id,
      ]);

      // The other user is untouched.
      expect(await repos.users.findById(kept.id)).toEqual(kept);
      expect(await repos.apiKeys.findById(ours.key.id)).toEqual(ours.key);
      expect(await repos.resetTokens.isValid(ours.tokenHash, T0)).toBe(true);
      expect(await repos.verificationTokens.isValid(ours.verificationHash, T0)).toBe(true);
      expect(await repos.mailQueue.findById(ours.jobId)).not.toBeNull();
    });

    it("answers false for an unknown or already deleted user, and frees the address", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos, { email: "once@example.com" });
      expect(await repos.users.deleteCascade(user.id)).toBe(true);
      expect(await repos.users.deleteCascade(user.id)).toBe(false);
      expect(await repos.users.deleteCascade("01900000-0000-7000-8000-0000000000dd")).toBe(false);
      const again = buildUser({ email: "once@example.com", createdAt: at(1) });
      await repos.users.insert(again);
      expect(await repos.users.findByEmail("once@example.com")).toEqual(again);
    });
  });
}
