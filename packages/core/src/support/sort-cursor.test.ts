import { describe, expect, it } from "vitest";
import { isMarketplaceError } from "../errors.js";
import { toBase64Url } from "./crypto.js";
import { encodeCursor } from "./cursor.js";
import { decodeSortCursor, encodeSortCursor } from "./sort-cursor.js";

const ID = "0190a000-0000-7000-8000-000000000001";

describe("sort cursors", () => {
  it("round-trip every sort's key; newest first keeps 1.0.2's id cursor", () => {
    expect(encodeSortCursor("newest", { rank: 0, price: 5, id: ID })).toBe(encodeCursor(ID));
    for (const [sort, key] of [
      ["relevance", { rank: 1, price: null, id: ID }],
      ["price_asc", { rank: 0, price: 12.5, id: ID }],
      ["price_desc", { rank: 0, price: null, id: ID }],
    ] as const) {
      expect(decodeSortCursor(sort, encodeSortCursor(sort, key))).toEqual(key);
    }
  });

  it("refuses a cursor made for another sort, or not made here, as invalid_input on cursor", () => {
    const priced = encodeSortCursor("price_asc", { rank: 0, price: 1, id: ID });
    const refusals = [
      () => decodeSortCursor("price_desc", priced),
      () => decodeSortCursor("relevance", priced),
      () => decodeSortCursor("price_asc", encodeCursor(ID)),
      () => decodeSortCursor("relevance", "not-a-cursor"),
      () => decodeSortCursor("price_asc", toBase64Url(new TextEncoder().encode(`["pa",-1,"${ID}"]`))),
      () => decodeSortCursor("newest", priced),
    ];
    for (const refuse of refusals) {
      expect(refuse).toThrow();
      try {
        refuse();
      } catch (error) {
        expect(isMarketplaceError(error, "invalid_input")).toBe(true);
      }
    }
  });
});
