import { isUuid, type OAuthClientRepository, type OAuthGrantRepository } from "@psm/core";
import { and, desc, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { oauthClients, oauthCodes, oauthGrants, oauthRefreshTokens } from "../schema-oauth.js";

/** OAuthClientRepository on drizzle. */
export function createOAuthClientRepository(db: Db): OAuthClientRepository {
  return {
    insert: (client) =>
      guarded(async () => {
        await db.insert(oauthClients).values(client);
      }),
    findById: (id) =>
      guarded(async () => (await db.select().from(oauthClients).where(eq(oauthClients.id, id)))[0] ?? null),
  };
}

const liveAt = (now: Date) => and(isNull(oauthGrants.revokedAt), gt(oauthGrants.expiresAt, now));

/**
 * OAuthGrantRepository on drizzle. A code or refresh token is consumed by one conditional UPDATE
 * (`used = false`, `used_at IS NULL`): the row lock makes a racing second use wait, then find the
 * condition false, and be told it reused it.
 */
export function createOAuthGrantRepository(db: Db, reads: Db = db): OAuthGrantRepository {
  // Every request with an OAuth access token reads its grant: built once, not by drizzle per request.
  const grantById = lazy(() =>
    reads
      .select()
      .from(oauthGrants)
      .where(eq(oauthGrants.id, sql.placeholder("id")))
      .prepare("oauth_grant_by_id"),
  );
  const revoke = async (tx: Pick<Db, "update">, id: string, now: Date, userId?: string) =>
    (
      await tx
        .update(oauthGrants)
        .set({ revokedAt: now })
        .where(
          and(
            eq(oauthGrants.id, id),
            liveAt(now),
            userId === undefined ? undefined : eq(oauthGrants.userId, userId),
          ),
        )
        .returning({ id: oauthGrants.id })
    ).length > 0;
  return {
    insertCode: (code) =>
      guarded(async () => {
        await db.insert(oauthCodes).values(code);
      }),
    findCode: (codeHash, now) =>
      guarded(async () => {
        const [row] = await db
          .select()
          .from(oauthCodes)
          .where(and(eq(oauthCodes.codeHash, codeHash), gt(oauthCodes.expiresAt, now)));
        if (!row) return null;
        const { used: _, ...code } = row;
        return code;
      }),
    exchangeCode: (codeHash, grant, refresh, now) =>
      guarded(() =>
        db.transaction(async (tx) => {
          const [claimed] = await tx
            .update(oauthCodes)
            .set({ used: true })
            .where(and(eq(oauthCodes.codeHash, codeHash), eq(oauthCodes.used, false)))
            .returning({ grantId: oauthCodes.grantId });
          if (!claimed) {
            const [code] = await tx
              .select({ grantId: oauthCodes.grantId })
              .from(oauthCodes)
              .where(eq(oauthCodes.codeHash, codeHash));
            if (code) await revoke(tx, code.grantId, now);
            return { kind: "reused" as const };
          }
          await tx.insert(oauthGrants).values(grant);
          await tx.insert(oauthRefreshTokens).values(refresh);
          return { kind: "issued" as const };
        }),
      ),
    rotateRefreshToken: (tokenHash, replacement, now) =>
      guarded(() =>
        db.transaction(async (tx) => {
          const [used] = await tx
            .update(oauthRefreshTokens)
            .set({ usedAt: now })
            .where(
              and(
                eq(oauthRefreshTokens.tokenHash, tokenHash),
                isNull(oauthRefreshTokens.usedAt),
                gt(oauthRefreshTokens.expiresAt, now),
                sql`exists (select 1 from ${oauthGrants} where ${oauthGrants.id} = ${oauthRefreshTokens.grantId} and ${oauthGrants.revokedAt} is null and ${oauthGrants.expiresAt} > ${now.toISOString()}::timestamptz)`,
              ),
            )
            .returning({ grantId: oauthRefreshTokens.grantId });
          if (!used) {
            const [token] = await tx
              .select()
              .from(oauthRefreshTokens)
              .where(eq(oauthRefreshTokens.tokenHash, tokenHash));
            if (!token || token.usedAt === null) return { kind: "invalid" as const };
            await revoke(tx, token.grantId, now);
            return { kind: "reused" as const, grantId: token.grantId };
          }
          await tx.insert(oauthRefreshTokens).values({ ...replacement, grantId: used.grantId, usedAt: null });
          const [grant] = await tx
            .update(oauthGrants)
            .set({ expiresAt: replacement.expiresAt })
            .where(eq(oauthGrants.id, used.grantId))
            .returning();
          if (!grant) throw new Error("a refresh token without its grant");
          return { kind: "rotated" as const, grant };
        }),
      ),
    findGrant: (id) =>
      guarded(async () => (isUuid(id) ? ((await grantById().execute({ id }))[0] ?? null) : null)),
    findGrantByRefreshToken: (tokenHash) =>
      guarded(async () => {
        const [row] = await db
          .select({ grant: oauthGrants })
          .from(oauthRefreshTokens)
          .innerJoin(oauthGrants, eq(oauthGrants.id, oauthRefreshTokens.grantId))
          .where(eq(oauthRefreshTokens.tokenHash, tokenHash));
        return row?.grant ?? null;
      }),
    listLiveGrants: (userId, now) =>
      guarded(async () =>
        isUuid(userId)
          ? db
              .select()
              .from(oauthGrants)
              .where(and(eq(oauthGrants.userId, userId), liveAt(now)))
              .orderBy(desc(oauthGrants.id))
          : [],
      ),
    revokeGrant: (id, now, userId) =>
      guarded(
        async () => isUuid(id) && (userId === undefined || isUuid(userId)) && revoke(db, id, now, userId),
      ),
    deleteExpired: (now) =>
      guarded(async () => {
        const codes = await db
          .delete(oauthCodes)
          .where(lte(oauthCodes.expiresAt, now))
          .returning({ hash: oauthCodes.codeHash });
        // The foreign key takes each grant's refresh tokens with it.
        const grants = await db
          .delete(oauthGrants)
          .where(lte(oauthGrants.expiresAt, now))
          .returning({ id: oauthGrants.id });
        return codes.length + grants.length;
      }),
  };
}
