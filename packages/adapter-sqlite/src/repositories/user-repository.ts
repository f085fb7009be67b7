import { normalizeEmail, type User, type UserRepository } from "@psm/core";
import type { Database } from "better-sqlite3";
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../connection.js";
import { guarded } from "../db-errors.js";
import { lazy } from "../lazy.js";
import { users } from "../schema.js";
import { toUser, USER_COLUMNS, type UserRow } from "./user-rows.js";

/** UserRepository on drizzle; deleting a user cascades through the foreign keys. */
export function createUserRepository(sqlite: Database, db: Db): UserRepository {
  // Every request with a JWT reads its user by id: prepared once, read as an array (user-rows.ts).
  const byId = lazy(() =>
    sqlite.prepare<[string], UserRow>(`SELECT ${USER_COLUMNS} FROM users AS u WHERE u.id = ?`).raw(),
  );
  const byEmail = lazy(() =>
    db
      .select()
      .from(users)
      .where(eq(users.email, sql.placeholder("email")))
      .prepare(),
  );

  const find = (id: string): User | null => {
    const row = byId().get(id);
    return row === undefined ? null : toUser(row);
  };

  return {
    findById: (id) => guarded(() => find(id)),
    // A unit of work holds the write lock from its BEGIN IMMEDIATE: reading is holding.
    holdById: (id) => guarded(() => find(id)),
    // Stored lower-cased (normalizeEmail, JS toLowerCase) and looked up the same
    // way: the plain unique index on email is then case-insensitive for every letter.
    findByEmail: (email) => guarded(() => byEmail().get({ email: normalizeEmail(email) }) ?? null),
    insert: (user) =>
      guarded(() => {
        db.insert(users)
          .values({ ...user, email: normalizeEmail(user.email) })
          .run();
      }),
    list: (page) =>
      guarded(() =>
        db
          .select()
          .from(users)
          .where(page.before === undefined ? undefined : lt(users.id, page.before))
          .orderBy(desc(users.id))
          .limit(page.limit)
          .all(),
      ),
    updateProfile: (id, changes) =>
      guarded(() => {
        // Only the fields given: an absent one keeps its stored value.
        const set = {
          ...(changes.displayName === undefined ? {} : { displayName: changes.displayName }),
          ...(changes.accountType === undefined ? {} : { accountType: changes.accountType }),
          ...(changes.isAdmin === undefined ? {} : { isAdmin: changes.isAdmin }),
        };
        if (Object.keys(set).length === 0) return find(id);
        return db.update(users).set(set).where(eq(users.id, id)).returning().get() ?? null;
      }),
    setPasswordHash: (id, passwordHash, options) =>
      guarded(() => {
        const bump = options.revokeTokens ? 1 : 0;
        const result = db
          .update(users)
          .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + ${bump}` })
          .where(eq(users.id, id))
          .run();
        return result.changes > 0;
      }),
    // Only where no proof is on record, so the first one is kept.
    markEmailVerified: (id, at) =>
      guarded(() => {
        db.update(users)
          .set({ emailVerifiedAt: at })
          .where(and(eq(users.id, id), isNull(users.emailVerifiedAt)))
          .run();
        return find(id);
      }),
    // One DELETE: ON DELETE CASCADE removes listings (their FTS rows through the
    // delete trigger), API keys, reset and verification tokens, queued mail,
    // sessions and events in the same statement, so it is atomic; messages have
    // no foreign key and stay.
    deleteCascade: (id) => guarded(() => db.delete(users).where(eq(users.id, id)).run().changes > 0),
  };
}
