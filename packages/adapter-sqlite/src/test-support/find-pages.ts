import type { ListingFind, SortKey } from "@psm/core";
import type { FindRunner } from "../repositories/listing-find.js";

/** Every page of a find, following each page's last key or its resumeAfter. */
export function allPages(runner: FindRunner, query: ListingFind, now: Date): string[] {
  const ids: string[] = [];
  let after: SortKey | undefined;
  for (let page = 0; page < 500; page++) {
    const found = runner.find({ ...query, after }, now);
    ids.push(...found.map(({ row }) => row.id));
    const last = found.at(-1);
    after =
      found.length >= query.limit && last
        ? { rank: last.rank, price: last.row.price, id: last.row.id }
        : found.resumeAfter;
    if (after === undefined) return ids;
  }
  throw new Error("more than 500 pages");
}
