import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../support/crypto.js";
import { buildApiKey, buildUser, testId } from "../builders.js";
import { at, type ContractContext, HOUR, MINUTE, seedUser, T0 } from "./context.js";

const UNKNOWN = "01900000-0000-7000-8000-0000000000ab";

/**
 * Cases of the ports account recovery stands on: a user's proven address
 * (users.markEmailVerified), ending every key of a user at once
 * (apiKeys.deactivateByUser), and the verification tokens kept apart from
 * the reset tokens.
 */
export function accountRecoveryCases(ctx: ContractContext): void {
  describe("account recovery", () => {
    it("a user's proof of address round-trips, null or a time", async () => {
      const repos = ctx.repos();
      const proven = buildUser({ emailVerifiedAt: new Date("2026-02-03T04:05:06.789Z"), createdAt: at(1) });
      await repos.users.insert(proven);
      const unproven = await seedUser(repos);
      expect(await repos.users.findById(proven.id)).toEqual(proven);
      expect((await repos.users.findByEmail(unproven.email))?.emailVerifiedAt).toBeNull();
      expect((await repos.users.list({ limit: 10 })).map((user) => user.emailVerifiedAt)).toEqual([
        proven.emailVerifiedAt,
        null,
      ]);
    });

    it("markEmailVerified records the first proof, keeps it, and answers the stored user", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos, { tokenVersion: 2 });
      const first = await repos.users.markEmailVerified(user.id, at(MINUTE));
      expect(first).toEqual({ ...user, emailVerifiedAt: at(MINUTE) });
      // A later proof changes nothing: the first one is what counts.
      expect(await repos.users.markEmailVerified(user.id, at(HOUR))).toEqual(first);
      expect(await repos.users.findById(user.id)).toEqual(first);
      expect(await repos.users.markEmailVerified(UNKNOWN, at(HOUR))).toBeNull();
    });

    it("markEmailVerified touches no other user", async () => {
      const repos = ctx.repos();
      const [user, other] = [await seedUser(repos), await seedUser(repos)];
      await repos.users.markEmailVerified(user.id, T0);
      expect(await repos.users.findById(other.id)).toEqual(other);
    });

    it("deactivateByUser ends every key of that user, answers how many were active, spares others", async () => {
      const repos = ctx.repos();
      const [user, other] = [await seedUser(repos), await seedUser(repos)];
      const keys = [
        buildApiKey({ userId: user.id, createdAt: T0 }),
        buildApiKey({ userId: user.id, createdAt: at(1) }),
        buildApiKey({ userId: user.id, createdAt: at(2), isActive: false }),
        // A key stamped later than the caller's clock (another process's) ends too.
        buildApiKey({ userId: user.id, createdAt: at(HOUR) }),
      ];
      const theirs = buildApiKey({ userId: other.id, createdAt: at(3) });
      for (const key of [...keys, theirs]) await repos.apiKeys.insert(key);

      expect(await repos.apiKeys.deactivateByUser(user.id)).toBe(3);
      for (const key of keys)
        expect(await repos.apiKeys.findById(key.id)).toEqual({ ...key, isActive: false });
      expect(await repos.apiKeys.findById(theirs.id)).toEqual(theirs);
      expect(await repos.apiKeys.deactivateByUser(user.id)).toBe(0);
      expect(await repos.apiKeys.deactivateByUser(UNKNOWN)).toBe(0);
    });

    it("deactivateByUser with createdBefore ends only the keys created strictly before it", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [early, atProof, late] = [at(1), at(MINUTE), at(HOUR)].map((createdAt) =>
        buildApiKey({ userId: user.id, createdAt }),
      );
      for (const key of [early, atProof, late]) await repos.apiKeys.insert(key!);
      expect(await repos.apiKeys.deactivateByUser(user.id, at(MINUTE))).toBe(1);
      const active = await Promise.all(
        [early, atProof, late].map(async (k) => (await repos.apiKeys.findById(k!.id))?.isActive),
      );
      expect(active).toEqual([false, true, true]);
    });

    it("holdById answers the user, and a unit holding it makes another unit holding it wait", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      expect(await repos.users.holdById(user.id)).toEqual(user);
      expect(await repos.users.holdById(UNKNOWN)).toBeNull();
      if (!ctx.concurrency) return;
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const order: string[] = [];
      const first = repos.unitOfWork.run(async (tx) => {
        await tx.users.holdById(user.id);
        held();
        await released;
        await tx.users.setPasswordHash(user.id, "fake$first", { revokeTokens: true });
        order.push("first");
      });
      await holding;
      const second = repos.unitOfWork.run(async (tx) => {
        const seen = await tx.users.holdById(user.id);
        order.push("second");
        return seen?.tokenVersion;
      });
      // However long the second waits, it reads the row only once the first has committed.
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      await first;
      expect(await second).toBe(user.tokenVersion + 1);
      expect(order).toEqual(["first", "second"]);
    });

    it("verification and reset tokens live apart: neither store knows the other's token", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [reset, verification] = [sha256Hex("reset"), sha256Hex("verification")];
      await repos.resetTokens.insert({
        tokenHash: reset,
        userId: user.id,
        expiresAt: at(HOUR),
        createdAt: T0,
      });
      await repos.verificationTokens.insert({
        tokenHash: verification,
        userId: user.id,
        expiresAt: at(24 * HOUR),
        createdAt: T0,
      });
      expect(await repos.verificationTokens.isValid(reset, T0)).toBe(false);
      expect(await repos.verificationTokens.consume(reset, T0)).toBeNull();
      expect(await repos.resetTokens.isValid(verification, T0)).toBe(false);
      expect(await repos.resetTokens.consume(verification, T0)).toBeNull();
      // Ending one store's tokens of the user leaves the other's.
      await repos.resetTokens.deleteByUser(user.id);
      expect(await repos.verificationTokens.consume(verification, at(23 * HOUR))).toBe(user.id);
    });

    it("the verification mail is a job kind of its own, counted apart from reset mail", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const id = testId(T0);
      await repos.mailQueue.enqueue({ id, userId: user.id, kind: "email_verification", createdAt: T0 });
      expect(await repos.mailQueue.findById(id)).toMatchObject({
        kind: "email_verification",
        status: "pending",
      });
      expect(await repos.mailQueue.countSince(user.id, "email_verification", T0)).toBe(1);
      expect(await repos.mailQueue.countSince(user.id, "password_reset", T0)).toBe(0);
      expect(await repos.mailQueue.claimDue(T0, 5, MINUTE)).toEqual([
        expect.objectContaining({ id, kind: "email_verification" }),
      ]);
    });
  });
}
