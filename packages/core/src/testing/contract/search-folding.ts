import { describe, expect, it } from "vitest";
import type { Listing } from "../../domain/listing.js";
import { foldSearchText } from "../../domain/search-text.js";
import { type ContractContext, ids, listingOf, newestFirst, seedListings, seedUser, T0 } from "./context.js";

// Titles where lower-casing is not ASCII's: accents precomposed and combining,
// sharp s, Turkish dotted and dotless i, Greek final sigma, fullwidth forms,
// letter-like symbols (Kelvin, Ohm), a titlecase digraph, and a letter outside
// the Basic Multilingual Plane (two UTF-16 units, one code point).
const TITLES = [
  "Café CRÈME roasting",
  "Cafe\u0301 de\u0301cor consulting",
  "STRAẞE planning",
  "Straße audit",
  "İSTANBUL office setup",
  "ıspanak dotless",
  "ΟΔΟΣ ΣΟΦΙΑΣ strategy",
  "ＦＵＬＬＷＩＤＴＨ ａｐｐ",
  "5 \u212A resistor, 10 \u2126 load",
  "ǅungla review",
  "𐐀𐐁 Deseret primer",
];

// Terms of 1, 2 and 3+ code points, so each adapter's short-term and indexed paths are both taken.
const TERMS = [
  "café",
  "CAFÉ",
  "cafe\u0301",
  "e\u0301",
  "\u0301",
  "é",
  "e",
  "crème",
  "straße",
  "STRAẞE",
  "ẞ",
  "ß",
  "strasse",
  "i̇stanbul",
  "İSTANBUL",
  "istanbul",
  "İ",
  "i",
  "ı",
  "I",
  "οδος",
  "ΟΔΟΣ",
  "οδοσ",
  "σοφιας",
  "ΣΟΦΙΑΣ",
  "ς",
  "σ",
  "ｆｕｌｌ",
  "ＦＵＬＬ",
  "full",
  "ａ",
  "k resistor",
  "\u212A",
  "ω",
  "ǆungla",
  "ǅ",
  "Ǆ",
  "𐐨𐐩",
  "𐐀",
  "𐐩",
];

/** The titles `term` must find: those whose folded form holds the folded term. */
function expected(rows: Listing[], term: string): string[] {
  const needle = foldSearchText(term);
  return newestFirst(rows.filter((row) => foldSearchText(row.title).includes(needle)));
}

/**
 * Search folds exactly as foldSearchText, whatever the backend: each keeps or
 * computes its folded titles with it or must give the same answers.
 */
export function searchFoldingCases(ctx: ContractContext): void {
  describe("listings.search folding", () => {
    it("finds exactly the titles whose foldSearchText holds the folded term", async () => {
      const repos = ctx.repos();
      const author = await seedUser(repos);
      const rows = await seedListings(
        repos,
        TITLES.map((title, i) => listingOf(author, i, { title })),
      );
      for (const term of TERMS) {
        const found = await repos.listings.search({ limit: 100, status: "active", text: term }, T0);
        expect(ids(found), `term ${JSON.stringify(term)}`).toEqual(expected(rows, term));
        // An author's search takes another path in some backends: it must agree.
        const own = await repos.listings.search(
          { limit: 100, status: "active", text: term, userId: author.id },
          T0,
        );
        expect(ids(own), `term ${JSON.stringify(term)} by author`).toEqual(expected(rows, term));
      }
    });

    it("pins what foldSearchText means for the tricky cases", async () => {
      const repos = ctx.repos();
      const author = await seedUser(repos);
      await seedListings(
        repos,
        TITLES.map((title, i) => listingOf(author, i, { title })),
      );
      const titles = async (text: string) =>
        (await repos.listings.search({ limit: 100, status: "active", text }, T0)).map((row) => row.title);
      // Case is folded for every script; diacritics and normalization forms are not.
      expect(await titles("CAFÉ")).toEqual(["Café CRÈME roasting"]);
      expect(await titles("cafe\u0301")).toEqual(["Cafe\u0301 de\u0301cor consulting"]);
      // Capital sharp s lower-cases to ß; ß is not ss.
      expect(await titles("straße")).toEqual(["Straße audit", "STRAẞE planning"]);
      expect(await titles("strasse")).toEqual([]);
      // İ lower-cases to i + U+0307 (locale-independent), so plain "istanbul" misses it.
      expect(await titles("İstanbul")).toEqual(["İSTANBUL office setup"]);
      expect(await titles("istanbul")).toEqual([]);
      // Final sigma: ΟΔΟΣ folds to οδος, and σοφιας matches ΣΟΦΙΑΣ.
      expect(await titles("οδος σοφιας")).toEqual(["ΟΔΟΣ ΣΟΦΙΑΣ strategy"]);
      // Fullwidth letters fold within fullwidth; the Kelvin sign folds to ASCII k.
      expect(await titles("ｆｕｌｌ")).toEqual(["ＦＵＬＬＷＩＤＴＨ ａｐｐ"]);
      expect(await titles("full")).toEqual([]);
      expect(await titles("k resistor")).toEqual(["5 \u212A resistor, 10 \u2126 load"]);
      expect(await titles("𐐨𐐩")).toEqual(["𐐀𐐁 Deseret primer"]);
    });
  });
}
