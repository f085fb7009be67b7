import { describe, expect, it } from "vitest";
import type { AuthorizationCode, OAuthGrant, RefreshToken } from "../../domain/oauth.js";
import type { User } from "../../domain/user.js";
import { isMarketplaceError } from "../../errors.js";
import { sha256Hex } from "../../support/crypto.js";
import { testId } from "../builders.js";
import { at, type ContractContext, HOUR, MINUTE, seedUser, T0 } from "./context.js";

const DAY = 24 * HOUR;
let serial = 0;

function codeOf(user: User, overrides: Partial<AuthorizationCode> = {}): AuthorizationCode {
  serial++;
  return {
    codeHash: sha256Hex(`code ${serial}`),
    grantId: testId(at(serial)),
    userId: user.id,
    clientId: "oc_AAAAAAAAAAAAAAAAAAAAAA",
    clientName: "Agent",
    redirectUri: "http://127.0.0.1/callback",
    codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    scopes: ["listings:write", "messages:read"],
    resources: ["https://market.example/mcp"],
    tokenVersion: 0,
    expiresAt: at(5 * MINUTE),
    ...overrides,
  };
}

function grantOf(code: AuthorizationCode, overrides: Partial<OAuthGrant> = {}): OAuthGrant {
  const { codeHash: _, redirectUri: __, codeChallenge: ___, grantId, expiresAt: ____, ...rest } = code;
  return { ...rest, id: grantId, createdAt: T0, expiresAt: at(30 * DAY), revokedAt: null, ...overrides };
}

function refreshOf(grant: OAuthGrant, secret: string, expiresAt = at(30 * DAY)): RefreshToken {
  return { tokenHash: sha256Hex(secret), grantId: grant.id, expiresAt, usedAt: null };
}

/** A grant made from a fresh code of `user`, with refresh token `secret`. */
async function issued(ctx: ContractContext, user: User, secret: string, overrides: Partial<OAuthGrant> = {}) {
  const repos = ctx.repos();
  const code = codeOf(user);
  await repos.oauthGrants.insertCode(code);
  const grant = grantOf(code, overrides);
  expect(await repos.oauthGrants.exchangeCode(code.codeHash, grant, refreshOf(grant, secret), T0)).toEqual({
    kind: "issued",
  });
  return { code, grant };
}

/** Cases of OAuthClientRepository and OAuthGrantRepository. */
export function oauthCases(ctx: ContractContext): void {
  describe("oauth", () => {
    it("stores a registered client and finds it by id", async () => {
      const repos = ctx.repos();
      const client = {
        id: "oc_BBBBBBBBBBBBBBBBBBBBBB",
        name: "Claude",
        redirectUris: ["http://127.0.0.1/cb", "https://app.example/cb"],
        createdAt: T0,
      };
      await repos.oauthClients.insert(client);
      expect(await repos.oauthClients.findById(client.id)).toEqual(client);
      expect(await repos.oauthClients.findById("oc_unknown")).toBeNull();
    });

    it("a code is found until it expires; its first exchange stores the grant, a second revokes it", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const code = codeOf(user);
      await repos.oauthGrants.insertCode(code);
      expect(await repos.oauthGrants.findCode(code.codeHash, at(5 * MINUTE - 1))).toEqual(code);
      expect(await repos.oauthGrants.findCode(code.codeHash, at(5 * MINUTE))).toBeNull();
      const grant = grantOf(code);
      const exchange = () => repos.oauthGrants.exchangeCode(code.codeHash, grant, refreshOf(grant, "r1"), T0);
      expect(await exchange()).toEqual({ kind: "issued" });
      expect(await repos.oauthGrants.findGrant(grant.id)).toEqual(grant);
      expect(
        await repos.oauthGrants.exchangeCode(code.codeHash, grant, refreshOf(grant, "r2"), at(MINUTE)),
      ).toEqual({
        kind: "reused",
      });
      expect((await repos.oauthGrants.findGrant(grant.id))?.revokedAt).toEqual(at(MINUTE));
      expect(await repos.oauthGrants.findGrantByRefreshToken(sha256Hex("r2"))).toBeNull();
    });

    it("racing exchanges of one code: exactly one issues", async () => {
      if (!ctx.concurrency) return;
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const code = codeOf(user);
      await repos.oauthGrants.insertCode(code);
      const grant = grantOf(code);
      const outcomes = await Promise.all(
        ["a", "b", "c"].map((s) =>
          repos.oauthGrants.exchangeCode(code.codeHash, grant, refreshOf(grant, s), T0),
        ),
      );
      expect(outcomes.filter((o) => o.kind === "issued")).toHaveLength(1);
    });

    it("a refresh token rotates once; its reuse revokes the grant and ends the replacement too", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const { grant } = await issued(ctx, user, "first");
      const next = { tokenHash: sha256Hex("second"), expiresAt: at(31 * DAY) };
      const rotated = await repos.oauthGrants.rotateRefreshToken(sha256Hex("first"), next, at(DAY));
      expect(rotated).toEqual({ kind: "rotated", grant: { ...grant, expiresAt: at(31 * DAY) } });
      expect((await repos.oauthGrants.findGrantByRefreshToken(sha256Hex("second")))?.id).toBe(grant.id);
      const third = { tokenHash: sha256Hex("third"), expiresAt: at(32 * DAY) };
      expect(await repos.oauthGrants.rotateRefreshToken(sha256Hex("first"), third, at(2 * DAY))).toEqual({
        kind: "reused",
        grantId: grant.id,
      });
      expect((await repos.oauthGrants.findGrant(grant.id))?.revokedAt).toEqual(at(2 * DAY));
      expect(await repos.oauthGrants.rotateRefreshToken(sha256Hex("second"), third, at(2 * DAY))).toEqual({
        kind: "invalid",
      });
      expect(await repos.oauthGrants.findGrantByRefreshToken(sha256Hex("third"))).toBeNull();
    });

    it("an unknown or expired refresh token, or one of a revoked grant, is invalid and changes nothing", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const next = () => ({ tokenHash: sha256Hex(`n${++serial}`), expiresAt: at(40 * DAY) });
      expect(await repos.oauthGrants.rotateRefreshToken(sha256Hex("never"), next(), T0)).toEqual({
        kind: "invalid",
      });
      await issued(ctx, user, "old");
      expect(await repos.oauthGrants.rotateRefreshToken(sha256Hex("old"), next(), at(30 * DAY))).toEqual({
        kind: "invalid",
      });
      const { grant } = await issued(ctx, user, "revoked");
      expect(await repos.oauthGrants.revokeGrant(grant.id, T0)).toBe(true);
      expect(await repos.oauthGrants.revokeGrant(grant.id, T0)).toBe(false);
      expect(await repos.oauthGrants.rotateRefreshToken(sha256Hex("revoked"), next(), T0)).toEqual({
        kind: "invalid",
      });
    });

    it("racing rotations of one refresh token: one rotates, the other is reuse and revokes the grant", async () => {
      if (!ctx.concurrency) return;
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const { grant } = await issued(ctx, user, "raced");
      const outcomes = await Promise.all(
        ["x", "y"].map((s) =>
          repos.oauthGrants.rotateRefreshToken(
            sha256Hex("raced"),
            { tokenHash: sha256Hex(s), expiresAt: at(DAY) },
            T0,
          ),
        ),
      );
      expect(outcomes.map((o) => o.kind).sort()).toEqual(["reused", "rotated"]);
      expect((await repos.oauthGrants.findGrant(grant.id))?.revokedAt).toEqual(T0);
    });

    it("lists a user's live grants newest first; revoking needs the owner when one is named", async () => {
      const repos = ctx.repos();
      const [user, other] = [await seedUser(repos), await seedUser(repos)];
      const a = (await issued(ctx, user, "a")).grant;
      const b = (await issued(ctx, user, "b")).grant;
      const theirs = (await issued(ctx, other, "c")).grant;
      expect((await repos.oauthGrants.listLiveGrants(user.id, T0)).map((g) => g.id)).toEqual([b.id, a.id]);
      expect(await repos.oauthGrants.revokeGrant(theirs.id, T0, user.id)).toBe(false);
      expect(await repos.oauthGrants.revokeGrant(a.id, at(MINUTE), user.id)).toBe(true);
      expect((await repos.oauthGrants.listLiveGrants(user.id, at(MINUTE))).map((g) => g.id)).toEqual([b.id]);
      expect(await repos.oauthGrants.listLiveGrants(user.id, at(30 * DAY))).toEqual([]);
    });

    it("a code of an unknown user is user_not_found; deleting the user ends its grants", async () => {
      const repos = ctx.repos();
      const refused = await repos.oauthGrants
        .insertCode(codeOf({ id: "0190a3c0-0000-7000-8000-000000000000" } as User))
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(isMarketplaceError(refused, "user_not_found")).toBe(true);
      const user = await seedUser(repos);
      const { grant } = await issued(ctx, user, "doomed");
      await repos.users.deleteCascade(user.id);
      expect(await repos.oauthGrants.findGrant(grant.id)).toBeNull();
      expect(await repos.oauthGrants.findGrantByRefreshToken(sha256Hex("doomed"))).toBeNull();
    });

    it("deleteExpired removes expired codes and grants with their refresh tokens", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      await repos.oauthGrants.insertCode(codeOf(user));
      const { grant } = await issued(ctx, user, "lapsing");
      expect(await repos.oauthGrants.deleteExpired(at(MINUTE))).toBe(0);
      expect(await repos.oauthGrants.deleteExpired(at(30 * DAY))).toBe(3);
      expect(await repos.oauthGrants.findGrant(grant.id)).toBeNull();
      expect(await repos.oauthGrants.findGrantByRefreshToken(sha256Hex("lapsing"))).toBeNull();
    });
  });
}
