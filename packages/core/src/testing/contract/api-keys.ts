import { describe, expect, it } from "vitest";
import { LAST_USED_INTERVAL_MS } from "../../domain/api-key.js";
import { buildApiKey } from "../builders.js";
import {
  at,
  type ContractContext,
  HOUR,
  ids,
  MINUTE,
  newestFirst,
  seedUser,
  shuffled,
  T0,
} from "./context.js";

const UNKNOWN = "01900000-0000-7000-8000-0000000000cc";
const DAY = 24 * HOUR;

/** Cases of ApiKeyRepository. */
export function apiKeyCases(ctx: ContractContext): void {
  describe("apiKeys", () => {
    it("round-trips a key by id and by digest, active or not", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const used = buildApiKey({
        userId: user.id,
        name: "CI robot — 機械",
        lastUsed: new Date("2026-03-01T11:59:00.456Z"),
        createdAt: new Date("2026-02-28T10:00:00.123Z"),
      });
      const fresh = buildApiKey({ userId: user.id, createdAt: at(1) });
      await repos.apiKeys.insert(used);
      await repos.apiKeys.insert(fresh);
      expect(await repos.apiKeys.findById(used.id)).toEqual(used);
      expect(await repos.apiKeys.findByHash(fresh.keyHash)).toEqual(fresh);
      expect(await repos.apiKeys.findById(UNKNOWN)).toBeNull();
      expect(await repos.apiKeys.findByHash("0".repeat(64))).toBeNull();
      expect(await repos.apiKeys.deactivate(used.id)).toBe(true);
      expect(await repos.apiKeys.findByHash(used.keyHash)).toEqual({ ...used, isActive: false });
    });

    it("findByHashWithUser, where a backend has it, answers findByHash's key with its user", async () => {
      const repos = ctx.repos();
      const read = repos.apiKeys.findByHashWithUser?.bind(repos.apiKeys);
      // Optional in the port: a backend without it is read through findByHash and users.findById.
      if (read === undefined) return;
      const user = await seedUser(repos);
      const key = buildApiKey({
        userId: user.id,
        scopes: ["messages:read"],
        expiresAt: at(5),
        createdAt: T0,
      });
      await repos.apiKeys.insert(key);
      await repos.apiKeys.deactivate(key.id);
      expect(await read(key.keyHash)).toEqual({
        key: await repos.apiKeys.findByHash(key.keyHash),
        user: await repos.users.findById(user.id),
      });
      expect((await read(key.keyHash))?.user).toEqual(user);
      // A key made before 1.3 (no prefix, no scopes), used once, of a verified admin.
      const admin = await seedUser(repos, { isAdmin: true, emailVerifiedAt: at(2), passwordHash: null });
      const legacy = buildApiKey({
        userId: admin.id,
        prefix: null,
        scopes: null,
        lastUsed: at(3),
        createdAt: at(1),
      });
      await repos.apiKeys.insert(legacy);
      expect(await read(legacy.keyHash)).toEqual({ key: legacy, user: admin });
      expect(await read("0".repeat(64))).toBeNull();
    });

    it("round-trips prefix, scopes in their order and expiresAt to the millisecond; absent ones stay null", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const scoped = buildApiKey({
        userId: user.id,
        prefix: "psm_0123abcd",
        // Not in SCOPES order, so a backend that sorts or dedupes through a set shows.
        scopes: ["messages:write", "listings:write", "admin"],
        expiresAt: new Date("2026-04-01T00:00:00.789Z"),
        createdAt: T0,
      });
      const plain = buildApiKey({ userId: user.id, createdAt: at(1) });
      await repos.apiKeys.insert(scoped);
      await repos.apiKeys.insert(plain);
      expect(await repos.apiKeys.findById(scoped.id)).toEqual(scoped);
      expect(await repos.apiKeys.findByHash(scoped.keyHash)).toEqual(scoped);
      expect(await repos.apiKeys.findByHash(plain.keyHash)).toMatchObject({
        prefix: null,
        scopes: null,
        expiresAt: null,
      });
      expect(await repos.apiKeys.list(user.id, { limit: 10 })).toEqual([plain, scoped]);
    });

    it("insert throws internal_error on a digest collision", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const key = buildApiKey({ userId: user.id, createdAt: T0 });
      await repos.apiKeys.insert(key);
      const twin = buildApiKey({ userId: user.id, keyHash: key.keyHash, createdAt: at(1) });
      await expect(repos.apiKeys.insert(twin)).rejects.toMatchObject({
        name: "MarketplaceError",
        code: "internal_error",
      });
      expect(await repos.apiKeys.findById(twin.id)).toBeNull();
    });

    it("lists one user's keys or everyone's, id descending, paged with before", async () => {
      const repos = ctx.repos();
      const [a, b] = [await seedUser(repos), await seedUser(repos)];
      const keys = Array.from({ length: 5 }, (_, i) =>
        buildApiKey({ userId: i % 2 ? b.id : a.id, createdAt: at(i) }),
      );
      for (const key of shuffled(keys)) await repos.apiKeys.insert(key);
      const ofA = keys.filter((key) => key.userId === a.id);
      expect(ids(await repos.apiKeys.list(a.id, { limit: 10 }))).toEqual(newestFirst(ofA));
      expect(ids(await repos.apiKeys.list(undefined, { limit: 10 }))).toEqual(newestFirst(keys));
      const order = newestFirst(keys);
      const first = await repos.apiKeys.list(undefined, { limit: 3 });
      expect(ids(first)).toEqual(order.slice(0, 3));
      expect(ids(await repos.apiKeys.list(undefined, { limit: 3, before: first[2]!.id }))).toEqual(
        order.slice(3),
      );
      const firstOfA = await repos.apiKeys.list(a.id, { limit: 1 });
      expect(ids(await repos.apiKeys.list(a.id, { limit: 5, before: firstOfA[0]!.id }))).toEqual(
        newestFirst(ofA).slice(1),
      );
      expect(await repos.apiKeys.list(UNKNOWN, { limit: 10 })).toEqual([]);
    });

    it("deactivate sets is_active false and answers false for an unknown id", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const [one, two] = [
        buildApiKey({ userId: user.id, createdAt: T0 }),
        buildApiKey({ userId: user.id, createdAt: at(1) }),
      ];
      await repos.apiKeys.insert(one);
      await repos.apiKeys.insert(two);
      expect(await repos.apiKeys.deactivate(one.id)).toBe(true);
      expect((await repos.apiKeys.findById(one.id))?.isActive).toBe(false);
      expect((await repos.apiKeys.findById(two.id))?.isActive).toBe(true);
      expect(await repos.apiKeys.deactivate(UNKNOWN)).toBe(false);
    });

    it("rotate inserts the replacement and sets the old key's expiry, unless its own is earlier", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const old = buildApiKey({ userId: user.id, scopes: ["listings:write"], createdAt: T0 });
      const soon = buildApiKey({ userId: user.id, expiresAt: at(HOUR), createdAt: at(1) });
      const late = buildApiKey({ userId: user.id, expiresAt: at(DAY), createdAt: at(2) });
      for (const key of [old, soon, late]) await repos.apiKeys.insert(key);
      const replacement = buildApiKey({
        userId: user.id,
        prefix: "psm_feedbeef",
        scopes: ["listings:write"],
        expiresAt: at(30 * DAY),
        createdAt: at(MINUTE),
      });
      const graceEnd = at(2 * HOUR + 123);

      expect(await repos.apiKeys.rotate(old.id, replacement, graceEnd, at(MINUTE))).toBe(true);
      expect(await repos.apiKeys.findByHash(replacement.keyHash)).toEqual(replacement);
      expect(await repos.apiKeys.findById(old.id)).toEqual({ ...old, expiresAt: graceEnd });

      const forSoon = buildApiKey({ userId: user.id, createdAt: at(MINUTE + 1) });
      expect(await repos.apiKeys.rotate(soon.id, forSoon, graceEnd, at(MINUTE))).toBe(true);
      expect(await repos.apiKeys.findById(soon.id)).toEqual(soon);
      const forLate = buildApiKey({ userId: user.id, createdAt: at(MINUTE + 2) });
      expect(await repos.apiKeys.rotate(late.id, forLate, graceEnd, at(MINUTE))).toBe(true);
      expect(await repos.apiKeys.findById(late.id)).toEqual({ ...late, expiresAt: graceEnd });
    });

    it("rotate answers false and writes nothing for an unknown, deactivated or expired key", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const revoked = buildApiKey({ userId: user.id, createdAt: T0 });
      // Expiring exactly at `now` counts as expired (keyRefusal).
      const expired = buildApiKey({ userId: user.id, expiresAt: at(MINUTE), createdAt: at(1) });
      await repos.apiKeys.insert(revoked);
      await repos.apiKeys.insert(expired);
      await repos.apiKeys.deactivate(revoked.id);
      const replacement = buildApiKey({ userId: user.id, createdAt: at(MINUTE) });

      for (const id of [UNKNOWN, revoked.id, expired.id]) {
        expect(await repos.apiKeys.rotate(id, replacement, at(HOUR), at(MINUTE))).toBe(false);
      }
      expect(await repos.apiKeys.findById(replacement.id)).toBeNull();
      expect(await repos.apiKeys.findById(revoked.id)).toEqual({ ...revoked, isActive: false });
      expect(await repos.apiKeys.findById(expired.id)).toEqual(expired);
    });

    it("rotate is atomic: a digest collision rejects with internal_error and leaves the old key as it was", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const old = buildApiKey({ userId: user.id, createdAt: T0 });
      const other = buildApiKey({ userId: user.id, createdAt: at(1) });
      await repos.apiKeys.insert(old);
      await repos.apiKeys.insert(other);
      const twin = buildApiKey({ userId: user.id, keyHash: other.keyHash, createdAt: at(MINUTE) });

      await expect(repos.apiKeys.rotate(old.id, twin, at(HOUR), at(MINUTE))).rejects.toMatchObject({
        name: "MarketplaceError",
        code: "internal_error",
      });
      expect(await repos.apiKeys.findById(twin.id)).toBeNull();
      expect(await repos.apiKeys.findById(old.id)).toEqual(old);
    });

    it("touchLastUsed writes at first use, then at most once per interval", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const key = buildApiKey({ userId: user.id, createdAt: T0 });
      await repos.apiKeys.insert(key);
      const lastUsed = async () => (await repos.apiKeys.findById(key.id))?.lastUsed?.toISOString() ?? null;
      const interval = LAST_USED_INTERVAL_MS;

      await repos.apiKeys.touchLastUsed(key.id, at(1), interval);
      expect(await lastUsed()).toBe(at(1).toISOString());
      await repos.apiKeys.touchLastUsed(key.id, at(interval), interval);
      expect(await lastUsed()).toBe(at(1).toISOString());
      // Exactly one interval later is no longer "within" it.
      await repos.apiKeys.touchLastUsed(key.id, at(1 + interval), interval);
      expect(await lastUsed()).toBe(at(1 + interval).toISOString());
      await repos.apiKeys.touchLastUsed(key.id, at(2 * MINUTE + 5), 0);
      expect(await lastUsed()).toBe(at(2 * MINUTE + 5).toISOString());
      await expect(repos.apiKeys.touchLastUsed(UNKNOWN, T0, interval)).resolves.toBeUndefined();
    });
  });
}
