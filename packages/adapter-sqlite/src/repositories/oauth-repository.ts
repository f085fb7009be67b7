import type { OAuthClientRepository, OAuthGrant, OAuthGrantRepository } from "@psm/core";
import { and, desc, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { oauthClients, oauthCodes, oauthGrants, oauthRefreshTokens } from "../schema-oauth.js";

/** OAuthClientRepository on drizzle. */
export function createOAuthClientRepository(db: Db): OAuthClientRepository {
  return {
    insert: (client) =>
      guarded(() => {
        db.insert(oauthClients).values(client).run();
      }),
    findById: (id) =>
      guarded(() => db.select().from(oauthClients).where(eq(oauthClients.id, id)).get() ?? null),
  };
}

const liveAt = (now: Date) => and(isNull(oauthGrants.revokedAt), gt(oauthGrants.expiresAt, now));

/**
 * OAuthGrantRepository on drizzle. Each consuming call is one `BEGIN IMMEDIATE` transaction, and
 * better-sqlite3 runs it whole before any other statement: of two racing uses, the second sees
 * the first's mark.
 */
export function createOAuthGrantRepository(db: Db): OAuthGrantRepository {
  // Every request with an OAuth access token reads its grant: prepared once, not compiled per request.
  const grantById = lazy(() =>
    db
      .select()
      .from(oauthGrants)
      .where(eq(oauthGrants.id, sql.placeholder("id")))
      .prepare(),
  );
  const revoke = (tx: Pick<Db, "update">, id: string, now: Date, userId?: string): boolean =>
    tx
      .update(oauthGrants)
      .set({ revokedAt: now })
      .where(
        and(
          eq(oauthGrants.id, id),
          liveAt(now),
          userId === undefined ? undefined : eq(oauthGrants.userId, userId),
        ),
      )
      .run().changes > 0;
  return {
    insertCode: (code) =>
      guarded(() => {
        db.insert(oauthCodes).values(code).run();
      }),
    findCode: (codeHash, now) =>
      guarded(() => {
        const row = db
          .select()
          .from(oauthCodes)
          .where(and(eq(oauthCodes.codeHash, codeHash), gt(oauthCodes.expiresAt, now)))
          .get();
        if (!row) return null;
        const { used: _, ...code } = row;
        return code;
      }),
    exchangeCode: (codeHash, grant, refresh, now) =>
      guarded(() =>
        db.transaction(
          (tx) => {
            const claimed = tx
              .update(oauthCodes)
              .set({ used: true })
              .where(and(eq(oauthCodes.codeHash, codeHash), eq(oauthCodes.used, false)))
              .returning({ grantId: oauthCodes.grantId })
              .get();
            if (!claimed) {
              const code = tx
                .select({ grantId: oauthCodes.grantId })
                .from(oauthCodes)
                .where(eq(oauthCodes.codeHash, codeHash))
                .get();
              if (code) revoke(tx, code.grantId, now);
              return { kind: "reused" as const };
            }
            tx.insert(oauthGrants).values(grant).run();
            tx.insert(oauthRefreshTokens).values(refresh).run();
            return { kind: "issued" as const };
          },
          { behavior: "immediate" },
        ),
      ),
    rotateRefreshToken: (tokenHash, replacement, now) =>
      guarded(() =>
        db.transaction(
          (tx) => {
            const token = tx
              .select()
              .from(oauthRefreshTokens)
              .where(eq(oauthRefreshTokens.tokenHash, tokenHash))
              .get();
            if (!token) return { kind: "invalid" as const };
            if (token.usedAt !== null) {
              revoke(tx, token.grantId, now);
              return { kind: "reused" as const, grantId: token.grantId };
            }
            const grant = tx
              .select()
              .from(oauthGrants)
              .where(and(eq(oauthGrants.id, token.grantId), liveAt(now)))
              .get();
            if (!grant || token.expiresAt.getTime() <= now.getTime()) return { kind: "invalid" as const };
            tx.update(oauthRefreshTokens)
              .set({ usedAt: now })
              .where(eq(oauthRefreshTokens.tokenHash, tokenHash))
              .run();
            tx.insert(oauthRefreshTokens)
              .values({ ...replacement, grantId: grant.id, usedAt: null })
              .run();
            tx.update(oauthGrants)
              .set({ expiresAt: replacement.expiresAt })
              .where(eq(oauthGrants.id, grant.id))
              .run();
            return { kind: "rotated" as const, grant: { ...grant, expiresAt: replacement.expiresAt } };
          },
          { behavior: "immediate" },
        ),
      ),
    findGrant: (id) => guarded(() => grantById().get({ id }) ?? null),
    findGrantByRefreshToken: (tokenHash) =>
      guarded(
        (): OAuthGrant | null =>
          db
            .select({ grant: oauthGrants })
            .from(oauthRefreshTokens)
            .innerJoin(oauthGrants, eq(oauthGrants.id, oauthRefreshTokens.grantId))
            .where(eq(oauthRefreshTokens.tokenHash, tokenHash))
            .get()?.grant ?? null,
      ),
    listLiveGrants: (userId, now) =>
      guarded(() =>
        db
          .select()
          .from(oauthGrants)
          .where(and(eq(oauthGrants.userId, userId), liveAt(now)))
          .orderBy(desc(oauthGrants.id))
          .all(),
      ),
    revokeGrant: (id, now, userId) => guarded(() => revoke(db, id, now, userId)),
    deleteExpired: (now) =>
      guarded(() =>
        db.transaction((tx) => {
          const codes = tx.delete(oauthCodes).where(lte(oauthCodes.expiresAt, now)).run().changes;
          // The foreign key takes each grant's refresh tokens with it.
          return codes + tx.delete(oauthGrants).where(lte(oauthGrants.expiresAt, now)).run().changes;
        }),
      ),
  };
}
