import { describe, expect, it } from "vitest";
import { LAST_USED_INTERVAL_MS } from "../../domain/api-key.js";
import { buildApiKey } from "../builders.js";
import { at, type ContractContext, ids, MINUTE, newestFirst, seedUser, shuffled, T0 } from "./context.js";

const UNKNOWN = "01900000-0000-7000-8000-0000000000cc";

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
