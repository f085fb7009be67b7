import { describe, expect, it } from "vitest";
import type { Repositories } from "../../ports/repositories.js";
import { sha256Hex } from "../../support/crypto.js";
import { at, type ContractContext, HOUR, seedUser, T0 } from "./context.js";

/** The two single-use token stores, which keep one contract. */
export type TokenStore = "resetTokens" | "verificationTokens";

/** Cases of ResetTokenRepository, for one store: reset or verification tokens. */
export function tokenStoreCases(ctx: ContractContext, store: TokenStore): void {
  async function seedToken(
    repos: Repositories,
    userId: string,
    name: string,
    expiresAt = at(HOUR),
  ): Promise<string> {
    const tokenHash = sha256Hex(name);
    await repos[store].insert({ tokenHash, userId, expiresAt, createdAt: T0 });
    return tokenHash;
  }

  describe(store, () => {
    it("consume returns the user once, then null", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const token = await seedToken(repos, user.id, "one");
      expect(await repos[store].isValid(token, T0)).toBe(true);
      expect(await repos[store].consume(token, T0)).toBe(user.id);
      expect(await repos[store].consume(token, T0)).toBeNull();
      expect(await repos[store].isValid(token, T0)).toBe(false);
      expect(await repos[store].consume(sha256Hex("never issued"), T0)).toBeNull();
    });

    it("an expired token is neither valid nor consumable (expiry equal to now included)", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const token = await seedToken(repos, user.id, "short", at(HOUR));
      expect(await repos[store].isValid(token, at(HOUR - 1))).toBe(true);
      expect(await repos[store].isValid(token, at(HOUR))).toBe(false);
      expect(await repos[store].consume(token, at(HOUR))).toBeNull();
      expect(await repos[store].consume(token, at(2 * HOUR))).toBeNull();
      // A failed consume does not use the token up.
      expect(await repos[store].consume(token, at(HOUR - 1))).toBe(user.id);
    });

    it("isValid does not consume", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const token = await seedToken(repos, user.id, "peek");
      expect(await repos[store].isValid(token, T0)).toBe(true);
      expect(await repos[store].isValid(token, T0)).toBe(true);
      expect(await repos[store].consume(token, T0)).toBe(user.id);
    });

    it.skipIf(!ctx.concurrency)("two racing consumes: exactly one wins", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const token = await seedToken(repos, user.id, "race");
      const results = await Promise.all([repos[store].consume(token, T0), repos[store].consume(token, T0)]);
      expect(results.filter((result) => result === user.id)).toHaveLength(1);
      expect(results.filter((result) => result === null)).toHaveLength(1);
    });

    it("deleteByUser ends every token of that user only", async () => {
      const repos = ctx.repos();
      const [user, other] = [await seedUser(repos), await seedUser(repos)];
      const mine = [await seedToken(repos, user.id, "a"), await seedToken(repos, user.id, "b")];
      const theirs = await seedToken(repos, other.id, "c");
      await repos[store].deleteByUser(user.id);
      for (const token of mine) expect(await repos[store].consume(token, T0)).toBeNull();
      expect(await repos[store].isValid(theirs, T0)).toBe(true);
    });

    it("delete removes one token and leaves the user's others", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [gone, kept] = [await seedToken(repos, user.id, "x"), await seedToken(repos, user.id, "y")];
      await repos[store].delete(gone);
      expect(await repos[store].isValid(gone, T0)).toBe(false);
      expect(await repos[store].consume(gone, T0)).toBeNull();
      expect(await repos[store].consume(kept, T0)).toBe(user.id);
      await expect(repos[store].delete(sha256Hex("absent"))).resolves.toBeUndefined();
    });
  });
}
