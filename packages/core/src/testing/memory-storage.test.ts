import { describe, expect, it } from "vitest";
import { buildListing, buildUser } from "./builders.js";
import { runRepositoryContract } from "./contract/index.js";
import { createMemoryStorage } from "./memory/storage.js";

runRepositoryContract("memory", { open: async () => createMemoryStorage() });

// Memory holds live objects where a database would copy rows: callers must never reach them.
describe("memory storage isolation", () => {
  it("neither the inserted nor the returned objects alias stored state", async () => {
    const { repositories: repos } = createMemoryStorage();
    const user = buildUser();
    await repos.users.insert(user);
    const listing = buildListing({ userId: user.id, images: ["https://a.example/1.png"] });
    await repos.listings.insertWithinSlots(listing, { maxSlots: 5, now: new Date() });
    listing.images.push("https://inserted.example/");
    const images = ["https://b.example/2.png"];
    await repos.listings.update(listing.id, { images }, { maxSlots: 5, now: new Date() });
    images.push("https://changed.example/");
    const [fromSearch] = await repos.listings.listAll({ limit: 1 });
    fromSearch?.images.push("https://returned.example/");
    expect((await repos.listings.findById(listing.id))?.images).toEqual(["https://b.example/2.png"]);
    const [listed] = await repos.users.list({ limit: 1 });
    if (listed) listed.displayName = "mutated";
    expect((await repos.users.findById(user.id))?.displayName).toBe(user.displayName);
  });

  it("ping answers false once closed", async () => {
    const storage = createMemoryStorage();
    expect(await storage.ping()).toBe(true);
    await storage.close();
    expect(await storage.ping()).toBe(false);
  });
});
