import { type AccountType, isUuid, type PageQuery, type User, type UserRepository } from "@psm/core";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { asArrays } from "../array-rows.js";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { users } from "../schema.js";
import { idBefore, pageLimit } from "./query-helpers.js";

/** The PostgreSQL UserRepository; `reads`: where the lookup by id runs (ListingRepositoryOptions.reads). */
export function createUserRepository(db: Db, reads: Db = db): UserRepository {
  // Every signed-in request reads its user: built once, then only executed.
  const byId = lazy(() =>
    asArrays(
      reads
        .select()
        .from(users)
        .where(eq(users.id, sql.placeholder("id")))
        .prepare("user_by_id"),
    ),
  );
  async function findById(id: string): Promise<User | null> {
    if (!isUuid(id)) return null;
    const [row] = await byId()({ id });
    return row ?? null;
  }

  return {
    findById: (id) => guarded(() => findById(id)),
    // FOR NO KEY UPDATE conflicts with another holder and with any UPDATE of the row (a
    // password or token version), not with the foreign-key checks of inserts naming the user.
    holdById: (id) =>
      guarded(async () => {
        if (!isUuid(id)) return null;
        const [row] = await db.select().from(users).where(eq(users.id, id)).for("no key update");
        return row ?? null;
      }),
    findByEmail: (email) =>
      guarded(async () => {
        // The same expression as the unique index, so the index answers.
        const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
        return row ?? null;
      }),
    insert: (user: User) =>
      guarded(async () => {
        await db.insert(users).values(user);
      }),
    list: (page: PageQuery) =>
      guarded(() =>
        db
          .select()
          .from(users)
          .where(idBefore(users.id, page))
          .orderBy(desc(users.id))
          .limit(pageLimit(page)),
      ),
    updateProfile: (id, changes: { displayName?: string; accountType?: AccountType; isAdmin?: boolean }) =>
      guarded(async () => {
        if (!isUuid(id)) return null;
        const set: Partial<typeof users.$inferInsert> = {};
        if (changes.displayName !== undefined) set.displayName = changes.displayName;
        if (changes.accountType !== undefined) set.accountType = changes.accountType;
        if (changes.isAdmin !== undefined) set.isAdmin = changes.isAdmin;
        if (Object.keys(set).length === 0) return findById(id);
        const [row] = await db.update(users).set(set).where(eq(users.id, id)).returning();
        return row ?? null;
      }),
    setPasswordHash: (id, passwordHash, options) =>
      guarded(async () => {
        if (!isUuid(id)) return false;
        const rows = await db
          .update(users)
          .set({
            passwordHash,
            // Bumped in the same statement, so no JWT can slip between the two writes.
            ...(options.revokeTokens ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
          })
          .where(eq(users.id, id))
          .returning({ id: users.id });
        return rows.length > 0;
      }),
    markEmailVerified: (id, at) =>
      guarded(async () => {
        if (!isUuid(id)) return null;
        // Only where no proof is on record, so the first one is kept.
        await db
          .update(users)
          .set({ emailVerifiedAt: at })
          .where(and(eq(users.id, id), isNull(users.emailVerifiedAt)));
        return findById(id);
      }),
    deleteCascade: (id) =>
      guarded(async () => {
        if (!isUuid(id)) return false;
        // One statement, so one transaction: the foreign keys' ON DELETE CASCADE
        // removes listings, API keys, reset and verification tokens and queued
        // mail with the user. Messages have no foreign key and stay.
        const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
        return rows.length > 0;
      }),
  };
}
