import { buildListing, buildUser } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { describePostgres } from "../../test/hooks.js";
import { escapeLike, hasTrigram } from "./listing-search.js";

describe("search term helpers", () => {
  it("escapes LIKE's wildcards and its escape character", () => {
    expect(escapeLike("100%_off\\now")).toBe("100\\%\\_off\\\\now");
    expect(escapeLike("plain")).toBe("plain");
  });

  it("sends only terms with three letters or digits in a row to the trigram index", () => {
    expect(hasTrigram("abc")).toBe(true);
    expect(hasTrigram("müller")).toBe(true);
    expect(hasTrigram("日本語")).toBe(true);
    expect(hasTrigram("ab")).toBe(false);
    expect(hasTrigram("a_b%c")).toBe(false);
    expect(hasTrigram("%%%")).toBe(false);
  });
});

describePostgres("postgres search terms", (ctx) => {
  const NOW = new Date("2026-03-01T12:00:00.000Z");

  async function seed(titles: string[]) {
    const { users, listings } = ctx.storage().repositories;
    const user = buildUser();
    await users.insert(user);
    for (const title of titles) {
      await listings.insertWithinSlots(buildListing({ userId: user.id, title }), { maxSlots: 99, now: NOW });
    }
    return async (text: string) =>
      (await listings.search({ limit: 50, status: "active", text, userId: user.id }, NOW)).map(
        (l) => l.title,
      );
  }

  it("takes %, _ and \\ literally inside terms long enough for the trigram index", async () => {
    const search = await seed([
      "Save 100%_off today",
      "Save 100xyoff today",
      "Save 100%xoff today",
      "Copy dir\\sub folder",
      "Copy dir/sub folder",
    ]);
    expect(await search("100%_OFF")).toEqual(["Save 100%_off today"]);
    expect(await search("100%")).toEqual(["Save 100%xoff today", "Save 100%_off today"]);
    expect(await search("dir\\sub")).toEqual(["Copy dir\\sub folder"]);
    expect(await search("today%")).toEqual([]);
  });

  it("takes %, _ and \\ literally in terms too short for trigrams", async () => {
    const search = await seed(["Save 100%_off today", "Copy dir\\sub folder", "a_b 5%", "plain title"]);
    expect(await search("%")).toEqual(["a_b 5%", "Save 100%_off today"]);
    expect(await search("%_")).toEqual(["Save 100%_off today"]);
    expect(await search("_")).toEqual(["a_b 5%", "Save 100%_off today"]);
    expect(await search("\\")).toEqual(["Copy dir\\sub folder"]);
    expect(await search("r\\s")).toEqual(["Copy dir\\sub folder"]);
    expect(await search("%%")).toEqual([]);
    expect(await search("b 5%")).toEqual(["a_b 5%"]);
  });

  it("folds every letter the way JavaScript does, whatever the database locale", async () => {
    const search = await seed(["MÜLLER Beratung", "ΣΟΦΊΑ analytics", "Ärger-Frei GmbH", "ÇA VA"]);
    expect(await search("müller")).toEqual(["MÜLLER Beratung"]);
    expect(await search("σοφία")).toEqual(["ΣΟΦΊΑ analytics"]);
    expect(await search("ärger-f")).toEqual(["Ärger-Frei GmbH"]);
    expect(await search("ça")).toEqual(["ÇA VA"]);
    expect(await search("Ü")).toEqual(["MÜLLER Beratung"]);
  });

  it("keeps the folded copy in step when a title changes", async () => {
    const { listings } = ctx.storage().repositories;
    const search = await seed(["Old name"]);
    const [found] = await listings.search({ limit: 1, status: "active", text: "old name" }, NOW);
    await listings.update(found!.id, { title: "NEUE Überschrift" }, { maxSlots: 99, now: NOW });
    expect(await search("old name")).toEqual([]);
    expect(await search("neue über")).toEqual(["NEUE Überschrift"]);
  });
});
