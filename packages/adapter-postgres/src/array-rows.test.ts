import { buildApiKey, buildListing, buildUser } from "@psm/core/testing";
import { eq, sql } from "drizzle-orm";
import { expect, it, vi } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { asArrays } from "./array-rows.js";
import { apiKeys, listings, users } from "./schema.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");

describePostgres("rows read as arrays (asArrays)", (ctx) => {
  it("answers what drizzle's own mapping answers: flat, nested, left-joined, computed", async () => {
    const storage = ctx.storage();
    const owner = buildUser({ emailVerifiedAt: NOW });
    await storage.repositories.users.insert(owner);
    const key = buildApiKey({ userId: owner.id, scopes: ["messages:read"], expiresAt: NOW });
    await storage.repositories.apiKeys.insert(key);
    const listing = buildListing({
      userId: owner.id,
      price: 12.5,
      images: ["https://img.example.com/a.png"],
      structuredData: { hours: 3, tags: ["a"] },
      expiresAt: null,
    });
    await storage.repositories.listings.insertWithinSlots(listing, { maxSlots: 10, now: NOW });
    const { db } = ctx.connection(1);

    const statements = {
      // Every column type the reads map: uuid, text, booleans, integers, doubles, JSON, instants.
      flat: db
        .select()
        .from(listings)
        .where(eq(listings.id, sql.placeholder("id")))
        .prepare("t_flat"),
      // A key and its user: nested objects, the user's table left-joined.
      nested: db
        .select({ key: apiKeys, user: users })
        .from(apiKeys)
        .leftJoin(users, eq(users.id, sql.placeholder("userId")))
        .where(eq(apiKeys.id, sql.placeholder("id")))
        .prepare("t_nested"),
      // Computed fields, one mapped by drizzle's decoder.
      computed: db
        .select({
          n: sql<number>`count(*)`.mapWith(Number),
          label: sql<string>`'x' || ${sql.placeholder("id")}::text`.as("label"),
        })
        .from(users)
        .prepare("t_computed"),
    };
    const cases: [keyof typeof statements, Record<string, unknown>][] = [
      ["flat", { id: listing.id }],
      ["nested", { id: key.id, userId: owner.id }],
      // No user joined: drizzle answers `user: null`, not an object of nulls.
      ["nested", { id: key.id, userId: buildUser().id }],
      ["computed", { id: owner.id }],
    ];
    for (const [name, values] of cases) {
      const statement = statements[name] as { execute(v: Record<string, unknown>): Promise<unknown[]> };
      const expected = await statement.execute(values);
      expect(expected).toHaveLength(1);
      // Read as arrays and mapped here: drizzle's execute is not what answers.
      const execute = vi.spyOn(statement, "execute");
      expect(await asArrays(statement)(values)).toEqual(expected);
      expect(execute).not.toHaveBeenCalled();
      execute.mockRestore();
    }
    const [row] = await asArrays(statements.flat)({ id: listing.id });
    expect(row?.createdAt).toBeInstanceOf(Date);
    expect(row?.structuredData).toEqual({ hours: 3, tags: ["a"] });
    const [missing] = await asArrays(statements.nested)({ id: key.id, userId: buildUser().id });
    expect(missing?.user).toBeNull();
  });

  it("runs inside the transaction the statement was prepared on", async () => {
    const storage = ctx.storage();
    const { db } = ctx.connection(1);
    const user = buildUser();
    let inside: unknown[] = [];
    const ended = await db
      .transaction(async (tx) => {
        await tx.insert(users).values(user);
        const read = asArrays(
          tx
            .select()
            .from(users)
            .where(eq(users.id, sql.placeholder("id")))
            .prepare("t_tx"),
        );
        inside = await read({ id: user.id });
        tx.rollback();
      })
      .catch((error: Error) => error);
    // The uncommitted row is seen inside, so the read ran on the transaction's connection.
    expect(inside).toEqual([expect.objectContaining({ id: user.id })]);
    expect(ended).toBeInstanceOf(Error);
    expect(await storage.repositories.users.findById(user.id)).toBeNull();
  });
});
