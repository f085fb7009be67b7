import { describe, expect, it } from "vitest";
import { buildUser } from "../builders.js";
import { at, type ContractContext, ids, newestFirst, seedUser, shuffled } from "./context.js";

const UNKNOWN = "01900000-0000-7000-8000-0000000000ee";

/** Cases of UserRepository except deleteCascade. */
export function userCases(ctx: ContractContext): void {
  describe("users", () => {
    it("round-trips every field exactly", async () => {
      const repos = ctx.repos();
      const admin = buildUser({
        email: "zoë.admin@example.com",
        displayName: "Zoë Ünïcode 管理者",
        isAdmin: true,
        accountType: "business",
        passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
        tokenVersion: 3,
        createdAt: new Date("2026-02-03T04:05:06.789Z"),
      });
      const synced = buildUser({ passwordHash: null, createdAt: at(1) });
      await repos.users.insert(admin);
      await repos.users.insert(synced);
      expect(await repos.users.findById(admin.id)).toEqual(admin);
      expect(await repos.users.findById(synced.id)).toEqual(synced);
      expect(await repos.users.findById(UNKNOWN)).toBeNull();
    });

    it("findByEmail matches in any case and answers null for an unknown address", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos, { email: "ann.smith@example.com" });
      expect(await repos.users.findByEmail("ann.smith@example.com")).toEqual(user);
      expect(await repos.users.findByEmail("Ann.Smith@EXAMPLE.com")).toEqual(user);
      expect(await repos.users.findByEmail("ann@example.com")).toBeNull();
      expect(await repos.users.findByEmail("ann.smith@example.co")).toBeNull();
    });

    it("insert throws email_taken for an address that exists in any case", async () => {
      const repos = ctx.repos();
      const first = await seedUser(repos, { email: "bob@example.com" });
      const exact = repos.users.insert(buildUser({ email: "bob@example.com", createdAt: at(1) }));
      await expect(exact).rejects.toMatchObject({ name: "MarketplaceError", code: "email_taken" });
      const shouted = repos.users.insert(buildUser({ email: "BOB@Example.COM", createdAt: at(2) }));
      await expect(shouted).rejects.toMatchObject({ name: "MarketplaceError", code: "email_taken" });
      expect(ids(await repos.users.list({ limit: 10 }))).toEqual([first.id]);
    });

    it("list pages id descending with before", async () => {
      const repos = ctx.repos();
      const users = Array.from({ length: 5 }, (_, i) => buildUser({ createdAt: at(i) }));
      for (const user of shuffled(users)) await repos.users.insert(user);
      const order = newestFirst(users);
      const first = await repos.users.list({ limit: 2 });
      expect(ids(first)).toEqual(order.slice(0, 2));
      const second = await repos.users.list({ limit: 2, before: first[1]!.id });
      expect(ids(second)).toEqual(order.slice(2, 4));
      expect(ids(await repos.users.list({ limit: 2, before: second[1]!.id }))).toEqual(order.slice(4));
      expect(await repos.users.list({ limit: 2, before: order[4] })).toEqual([]);
      expect((await repos.users.list({ limit: 100 }))[0]).toEqual(users[4]);
    });

    it("updateProfile changes only what is given and answers null for an unknown id", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos, { displayName: "Old", accountType: "business" });
      const renamed = { ...user, displayName: "Névé Name" };
      expect(await repos.users.updateProfile(user.id, { displayName: "Névé Name" })).toEqual(renamed);
      const downgraded = { ...renamed, accountType: "personal" as const };
      expect(await repos.users.updateProfile(user.id, { accountType: "personal" })).toEqual(downgraded);
      const both = { ...user, displayName: "Both", accountType: "business" as const };
      expect(
        await repos.users.updateProfile(user.id, { displayName: "Both", accountType: "business" }),
      ).toEqual(both);
      expect(await repos.users.findById(user.id)).toEqual(both);
      expect(await repos.users.updateProfile(user.id, {})).toEqual(both);
      const promoted = { ...both, isAdmin: true };
      expect(await repos.users.updateProfile(user.id, { isAdmin: true })).toEqual(promoted);
      expect(await repos.users.updateProfile(user.id, { displayName: "Boss" })).toEqual({
        ...promoted,
        displayName: "Boss",
      });
      expect((await repos.users.updateProfile(user.id, { isAdmin: false }))?.isAdmin).toBe(false);
      expect(await repos.users.findById(user.id)).toEqual({
        ...promoted,
        displayName: "Boss",
        isAdmin: false,
      });
      expect(await repos.users.updateProfile(UNKNOWN, { displayName: "x" })).toBeNull();
    });

    it("setPasswordHash bumps the token version only with revokeTokens", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos, { passwordHash: null, tokenVersion: 0 });
      expect(await repos.users.setPasswordHash(user.id, "fake$one", { revokeTokens: false })).toBe(true);
      expect(await repos.users.findById(user.id)).toEqual({
        ...user,
        passwordHash: "fake$one",
        tokenVersion: 0,
      });
      expect(await repos.users.setPasswordHash(user.id, "fake$two", { revokeTokens: true })).toBe(true);
      expect(await repos.users.findById(user.id)).toEqual({
        ...user,
        passwordHash: "fake$two",
        tokenVersion: 1,
      });
      expect(await repos.users.setPasswordHash(user.id, "fake$three", { revokeTokens: true })).toBe(true);
      expect((await repos.users.findById(user.id))?.tokenVersion).toBe(2);
      expect(await repos.users.setPasswordHash(UNKNOWN, "fake$x", { revokeTokens: true })).toBe(false);
    });
  });
}
