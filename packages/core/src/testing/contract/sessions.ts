import { describe, expect, it } from "vitest";
import { isMarketplaceError } from "../../errors.js";
import type { Session } from "../../ports/session-repository.js";
import { sha256Hex } from "../../support/crypto.js";
import { at, type ContractContext, HOUR, seedUser, T0 } from "./context.js";

/** A session of `userId` under the digest of `secret`, opened at T0 for an hour. */
function sessionOf(userId: string, secret: string, overrides: Partial<Session> = {}): Session {
  return {
    tokenHash: sha256Hex(secret),
    userId,
    tokenVersion: 0,
    createdAt: T0,
    expiresAt: at(HOUR),
    ...overrides,
  };
}

/** Cases of SessionRepository. */
export function sessionCases(ctx: ContractContext): void {
  describe("sessions", () => {
    it("finds a session until it expires (expiry equal to now excluded), then sweeps it", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const session = sessionOf(user.id, "session one", { tokenVersion: 3 });
      const { tokenHash } = session;
      await repos.sessions.insert(session);
      expect(await repos.sessions.find(tokenHash, at(HOUR - 1))).toEqual(session);
      expect(await repos.sessions.find(tokenHash, at(HOUR))).toBeNull();
      expect(await repos.sessions.find(sha256Hex("never issued"), T0)).toBeNull();
      expect(await repos.sessions.deleteExpired(at(HOUR - 1))).toBe(0);
      expect(await repos.sessions.deleteExpired(at(HOUR))).toBe(1);
      expect(await repos.sessions.find(tokenHash, T0)).toBeNull();
    });

    it("delete ends one session and leaves the user's others", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [a, b] = [sessionOf(user.id, "a"), sessionOf(user.id, "b")];
      for (const session of [a, b]) await repos.sessions.insert(session);
      await repos.sessions.delete(a.tokenHash);
      await repos.sessions.delete(sha256Hex("unknown"));
      expect(await repos.sessions.find(a.tokenHash, T0)).toBeNull();
      expect(await repos.sessions.find(b.tokenHash, T0)).not.toBeNull();
    });

    it("a session of an unknown user is user_not_found; deleting the user ends its sessions", async () => {
      const repos = ctx.repos();
      const refused = await repos.sessions
        .insert(sessionOf("0190a3c0-0000-7000-8000-000000000000", "x"))
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(isMarketplaceError(refused, "user_not_found")).toBe(true);
      const user = await seedUser(repos);
      const doomed = sessionOf(user.id, "doomed");
      await repos.sessions.insert(doomed);
      await repos.users.deleteCascade(user.id);
      expect(await repos.sessions.find(doomed.tokenHash, T0)).toBeNull();
    });
  });
}
