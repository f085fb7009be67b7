import { describe, expect, it } from "vitest";
import { buildListing } from "../testing/builders.js";
import { stemsOf } from "./full-text.js";
import { listingMatchKeys } from "./saved-search.js";
import { foldSearchText } from "./search-text.js";

/** The keys as their definition reads: every stem whole, its first 1..6 code points, every 1..3-gram of the folded title. */
function reference(title: string, description: string, category: string, price: number | null): Set<string> {
  const keys = new Set<string>([`c:${category}`]);
  if (price !== null) keys.add("price");
  for (const stem of new Set([...stemsOf(title), ...stemsOf(description)])) {
    const points = Array.from(stem);
    keys.add(`w:${points.slice(0, 64).join("")}`);
    for (let n = 1; n <= Math.min(6, points.length); n++) keys.add(`p:${points.slice(0, n).join("")}`);
  }
  const folded = Array.from(foldSearchText(title));
  for (let i = 0; i < folded.length; i++) {
    for (let n = 1; n <= 3 && i + n <= folded.length; n++) keys.add(`t:${folded.slice(i, i + n).join("")}`);
  }
  return keys;
}

describe("listingMatchKeys", () => {
  const cases = [
    { title: "Security audits", description: "Two weeks of penetration testing", price: 900 },
    { title: "Café 𝒳𝒴𝒵 branding", description: "Logos, 𝒳𝒴𝒵𝒲𝒱𝒰𝒯 and type", price: null },
    { title: "a", description: `${"𝒳".repeat(70)} ${"y".repeat(70)}`, price: 1 },
  ];
  for (const { title, description, price } of cases) {
    it(`holds every key its definition names: ${title}`, () => {
      const listing = buildListing({ title, description, price, category: "ux-ui-design" });
      expect(listingMatchKeys(listing)).toEqual(reference(title, description, "ux-ui-design", price));
    });
  }
});
