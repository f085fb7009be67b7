import { describe, expect, it } from "vitest";
import { searchWords } from "../../domain/full-text.js";
import type { Listing } from "../../domain/listing.js";
import type { ContractContext } from "./context.js";
import { listingOf, MINUTE, seedListings, seedUser, shuffled } from "./context.js";
import { type FindCriteria, findQuery, foundTitles } from "./find-support.js";
import { NOW } from "./listing-catalog.js";

// Each word here stems alike in FTS5's Porter, PostgreSQL's Porter2 and core's porterStem.
const TEXTS: [title: string, description: string][] = [
  ["Pentest offer", "Penetration Testing for SaaS Startups"],
  ["Consulting for startups", "We advise founders."],
  ["Consultant network", "Senior people on call."],
  ["Strategy consult", "One day with a partner."],
  ["Café branding", "Logos and menus."],
  ["Cafe menu design", "Print and web."],
  ["MÜLLER bookkeeping", "Monthly books, done right."],
  ["Kubernetes audit", "A review of your clusters."],
  ["Kubernetes setup", "Clusters from scratch, audited twice."],
  ["Cloud audit", "Kubernetes not included."],
];

/** Cases of ListingRepository.find with words: stemming, accents, prefixes, relevance. */
export function listingFullTextCases(ctx: ContractContext): void {
  // Words as core hands them to storage (searchWords): "Café" arrives as "cafe".
  const find = async (words: string[], criteria: FindCriteria = {}) =>
    foundTitles(
      await ctx
        .repos()
        .listings.find(findQuery({ words: words.flatMap(searchWords), sort: "relevance", ...criteria }), NOW),
    );

  async function seed(): Promise<Listing[]> {
    const author = await seedUser(ctx.repos());
    const rows = TEXTS.map(([title, description], i) =>
      listingOf(author, i * MINUTE, { title, description }),
    );
    return seedListings(ctx.repos(), shuffled(rows));
  }

  describe("listings.find: full text", () => {
    it("reads descriptions: penetration finds a listing titled Pentest offer", async () => {
      await seed();
      expect(await find(["penetration"])).toEqual(["Pentest offer"]);
      expect(await find(["saas", "startups"])).toEqual(["Pentest offer"]);
    });

    it("stems English words: consult, consulting and consultant find each other", async () => {
      await seed();
      const all = ["Strategy consult", "Consultant network", "Consulting for startups"];
      for (const word of ["consult", "consulting", "consultant", "consults", "consulted"]) {
        expect(await find([word]), word).toEqual(all);
      }
      expect(await find(["audits"])).toEqual(["Cloud audit", "Kubernetes audit", "Kubernetes setup"]);
    });

    it("ignores case and accents: cafe finds café and café finds cafe", async () => {
      await seed();
      expect(await find(["cafe"])).toEqual(["Cafe menu design", "Café branding"]);
      expect(await find(["café"])).toEqual(["Cafe menu design", "Café branding"]);
      expect(await find(["muller"])).toEqual(["MÜLLER bookkeeping"]);
      expect(await find(["müller"])).toEqual(["MÜLLER bookkeeping"]);
    });

    it("takes the last word also as a prefix, the others whole", async () => {
      await seed();
      expect(await find(["pen"])).toEqual(["Pentest offer"]);
      expect(await find(["kube"])).toEqual(["Kubernetes setup", "Kubernetes audit", "Cloud audit"]);
      expect(await find(["consu"])).toEqual([
        "Strategy consult",
        "Consultant network",
        "Consulting for startups",
      ]);
      // Not last: a whole word only.
      expect(await find(["kube", "audit"])).toEqual([]);
      expect(await find(["pen", "testing"])).toEqual([]);
    });

    it("requires every word, from the title or the description", async () => {
      await seed();
      expect(await find(["kubernetes", "audit"])).toEqual([
        "Kubernetes audit",
        "Cloud audit",
        "Kubernetes setup",
      ]);
      expect(await find(["kubernetes", "clusters", "scratch"])).toEqual(["Kubernetes setup"]);
      expect(await find(["kubernetes", "zebra"])).toEqual([]);
    });

    it("orders by relevance: title matches first, then description-only matches, newer first in each", async () => {
      await seed();
      // Kubernetes audit (title holds both) ranks above the newer ones that need their description.
      const rows = await ctx
        .repos()
        .listings.find(findQuery({ words: ["kubernetes", "audit"], sort: "relevance" }), NOW);
      expect(rows.map((row) => [row.listing.title, row.rank])).toEqual([
        ["Kubernetes audit", 0],
        ["Cloud audit", 1],
        ["Kubernetes setup", 1],
      ]);
      // Newest first, the same matches.
      expect(await find(["kubernetes", "audit"], { sort: "newest" })).toEqual([
        "Cloud audit",
        "Kubernetes setup",
        "Kubernetes audit",
      ]);
    });

    it("combines words with the title substring, category, author and status", async () => {
      const rows = await seed();
      expect(await find(["audit"], { text: "kube" })).toEqual(["Kubernetes audit", "Kubernetes setup"]);
      expect(await find(["audit"], { text: "zzz" })).toEqual([]);
      expect(await find(["audit"], { userId: rows[0]?.userId })).toHaveLength(3);
      expect(await find(["audit"], { category: "cybersecurity" })).toEqual([]);
      const paused = rows.find((row) => row.title === "Cloud audit");
      await ctx.repos().listings.update(paused?.id ?? "", { status: "paused" }, { maxSlots: 1000, now: NOW });
      expect(await find(["audit"])).toEqual(["Kubernetes audit", "Kubernetes setup"]);
      expect(await find(["audit"], { status: "paused" })).toEqual(["Cloud audit"]);
    });

    it("matches the last word as it is typed, letter by letter, past its stem", async () => {
      const author = await seedUser(ctx.repos());
      await seedListings(ctx.repos(), [
        listingOf(author, 0, { title: "Payroll and payments", description: "Monthly runs." }),
        listingOf(author, MINUTE, { title: "Consulate paperwork", description: "Consulting included." }),
        listingOf(author, 2 * MINUTE, { title: "Security review", description: "Analytics of your stack." }),
      ]);
      // "consulting" is indexed as consult: consulti and consultin run past that stem.
      for (const typed of ["consult", "consulti", "consultin", "consulting"])
        expect(await find([typed]), typed).toEqual(["Consulate paperwork"]);
      // pay and analy stem to pai and anali; the words typed begin payroll and analytics.
      for (const typed of ["pay", "payr", "payment"])
        expect(await find([typed]), typed).toEqual(["Payroll and payments"]);
      for (const typed of ["analy", "securi", "review", "stack"])
        expect(await find([typed]), typed).toEqual(["Security review"]);
      // Only the last word is a prefix; a completion is of the letters typed, not any word.
      for (const typed of [["securi", "review"], ["consultx"], ["analyz"], ["payx"], ["securit", "x"]])
        expect(await find(typed), typed.join(" ")).toEqual([]);
      expect(await find(["review", "securi"])).toEqual(["Security review"]);
    });

    it("matches the last word as a prefix of stems or of the words it completes", async () => {
      const author = await seedUser(ctx.repos());
      await seedListings(ctx.repos(), [
        listingOf(author, 0, { title: "Consulate visa help", description: "Forms, filed." }),
        listingOf(author, MINUTE, { title: "Consulate paperwork", description: "Consulting included." }),
        listingOf(author, 2 * MINUTE, { title: "Employee onboarding", description: "Employment law." }),
      ]);
      const rows = await ctx
        .repos()
        .listings.find(findQuery({ words: ["consulting"], sort: "relevance" }), NOW);
      expect(rows.map((row) => [row.listing.title, row.rank])).toEqual([["Consulate paperwork", 1]]);
      // A prefix of the stems (consul, consult), or the start of a word: consula begins consulate.
      expect(await find(["consu"])).toEqual(["Consulate paperwork", "Consulate visa help"]);
      expect(await find(["consula"])).toEqual(["Consulate paperwork", "Consulate visa help"]);
      expect(await find(["consultat"])).toEqual(["Consulate paperwork"]);
      expect(await find(["employment"])).toEqual(["Employee onboarding"]);
      // Not pinned: "employ" stems to "emploi" in Porter (SQLite, memory) but "employ" in Porter2
      // (PostgreSQL), so only PostgreSQL finds "employment" by it (DESIGN.md "Full-text search").
    });

    it("follows edits: a changed title or description is searched as it now is", async () => {
      const rows = await seed();
      const cafe = rows.find((row) => row.title === "Cafe menu design");
      await ctx
        .repos()
        .listings.update(
          cafe?.id ?? "",
          { title: "Bakery menu", description: "Sourdough." },
          { maxSlots: 1000, now: NOW },
        );
      expect(await find(["cafe"])).toEqual(["Café branding"]);
      expect(await find(["sourdough"])).toEqual(["Bakery menu"]);
      const bakery = await ctx
        .repos()
        .listings.find(findQuery({ words: ["bakery"], sort: "relevance" }), NOW);
      expect(bakery.map((row) => [row.listing.title, row.rank])).toEqual([["Bakery menu", 0]]);
      await ctx.repos().listings.delete(cafe?.id ?? "");
      expect(await find(["sourdough"])).toEqual([]);
    });
  });
}
