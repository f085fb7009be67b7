import { describe, expect, it } from "vitest";
import { isMarketplaceError } from "../../errors.js";
import { sha256Hex } from "../../support/crypto.js";
import { at, type ContractContext, HOUR, seedUser, T0 } from "./context.js";

/** Cases of SessionRepository. */
export function sessionCases(ctx: ContractContext): void {
  describe("sessions", () => {
    it("finds a session until it expires (expiry equal to now excluded), then sweeps it", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const tokenHash = sha256Hex("session one");
      await repos.sessions.insert({
        tokenHash,
        userId: user.id,
        tokenVersion: 3,
        createdAt: T0,
        expiresAt: at(HOUR),
      });
      expect(await repos.sessions.find(tokenHash, at(HOUR - 1))).toEqual({
        tokenHash,
        userId: user.id,
        tokenVersion: 3,
        createdAt: T0,
        expiresAt: at(HOUR),
      });
      expect(await repos.sessions.find(tokenHash, at(HOUR))).toBeNull();
      expect(await repos.sessions.find(sha256Hex("never issued"), T0)).toBeNull();
      expect(await repos.sessions.deleteExpired(at(HOUR - 1))).toBe(0);
      expect(await repos.sessions.deleteExpired(at(HOUR))).toBe(1);
      expect(await repos.sessions.find(tokenHash, T0)).toBeNull();
    });

    it("delete ends one session and leaves the user's others", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [a, b] = [sha256Hex("a"), sha256Hex("b")];
      for (const tokenHash of [a, b]) {
        await repos.sessions.insert({
          tokenHash,
          userId: user.id,
          tokenVersion: 0,
          createdAt: T0,
          expiresAt: at(HOUR),
        });
      }
      await repos.sessions.delete(a);
      await repos.sessions.delete(sha256Hex("unknown"));
      expect(await repos.sessions.find(a, T0)).toBeNull();
      expect(await repos.sessions.find(b, T0)).not.toBeNull();
    });

    it("a session of an unknown user is user_not_found; deleting the user ends its sessions", async () => {
      const repos = ctx.repos();
      const refused = await repos.sessions
        .insert({
          tokenHash: sha256Hex("x"),
          userId: "0190a3c0-0000-7000-8000-000000000000",
          tokenVersion: 0,
          createdAt: T0,
          expiresAt: at(HOUR),
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(isMarketplaceError(refused, "user_not_found")).toBe(true);
      const user = await seedUser(repos);
      const tokenHash = sha256Hex("doomed");
      await repos.sessions.insert({
        tokenHash,
        userId: user.id,
        tokenVersion: 0,
        createdAt: T0,
        expiresAt: at(HOUR),
      });
      await repos.users.deleteCascade(user.id);
      expect(await repos.sessions.find(tokenHash, T0)).toBeNull();
    });
  });
}
