import type { Category } from "../../domain/category.js";
import { isSearchable, type Listing } from "../../domain/listing.js";
import { foldSearchText } from "../../domain/search-text.js";
import type { Repositories } from "../../ports/repositories.js";
import { listingOf, newestFirst, seedListings, seedUser, shuffled } from "./context.js";

/** The instant every search case asks at. */
export const NOW = new Date("2026-03-01T13:00:00.000Z");

// Titles chosen so that a LIKE without escaping, or an ASCII-only lower(), finds too much or too little.
const CATALOG: [title: string, category: Category, author: 0 | 1][] = [
  ["MÜLLER Consulting", "strategic-consulting", 0],
  ["ÉCOLE de design", "ux-ui-design", 0],
  ["50% discount audit", "financial-services", 1],
  ["500 units of code", "software-development", 1],
  ["a_b testing playbook", "digital-marketing", 0],
  ["axb testing playbook", "digital-marketing", 1],
  ["C\\D migration plan", "software-development", 0],
  ["CD migration plan", "software-development", 1],
  ["Ölraffinerie data work", "data-analytics", 1],
  ["plain legal review", "legal-consulting", 0],
];

/** Ten active listings of two authors, plus paused, expired and soon-expiring ones. */
export async function seedCatalog(repos: Repositories) {
  const authors = [await seedUser(repos), await seedUser(repos)] as const;
  const active = CATALOG.map(([title, category, author], i) =>
    listingOf(authors[author], i * 1000, { title, category }),
  );
  const paused = listingOf(authors[0], 20_000, { title: "Müller paused", status: "paused" });
  const expired = listingOf(authors[0], 21_000, { title: "Müller expired", expiresAt: NOW });
  const later = listingOf(authors[0], 22_000, {
    title: "Müller later",
    expiresAt: new Date(NOW.getTime() + 1),
  });
  const all = [...active, paused, expired, later];
  await seedListings(repos, shuffled(all));
  return { authors, all, active, paused, expired, later };
}

/** The reference meaning of a search: a plain substring of the folded title. */
export function substringOracle(rows: Listing[], term: string): string[] {
  const needle = foldSearchText(term);
  return newestFirst(
    rows.filter((row) => isSearchable(row, NOW) && foldSearchText(row.title).includes(needle)),
  );
}
