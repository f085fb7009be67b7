import { describe, expect, it } from "vitest";
import { findMoney, parseAmount } from "./money.js";

describe("parseAmount", () => {
  it.each([
    ["1,500", undefined, 1500],
    ["1.500", undefined, 1500],
    ["1.500,00", undefined, 1500],
    ["12,500.00", undefined, 12500],
    ["1'200", undefined, 1200],
    ["3 000", undefined, 3000],
    ["75.50", undefined, 75.5],
    ["1500,5", undefined, 1500.5],
    ["2", "k", 2000],
    ["2,5", "k", 2500],
    ["1.2", " million", 1_200_000],
  ] as const)("%s %s -> %s", (raw, multiplier, expected) => {
    expect(parseAmount(raw, multiplier)).toBe(expected);
  });
});

describe("findMoney", () => {
  const first = (text: string) => findMoney(text)[0];

  it("finds currency before or after the amount, symbols and codes", () => {
    expect(first("costs $1,500 total")).toMatchObject({ value: 1500, currency: "$" });
    expect(first("1.500,00 € netto")).toMatchObject({ value: 1500, currency: "€" });
    expect(first("EUR 2k per sprint")).toMatchObject({ value: 2000, currency: "EUR" });
    expect(first("from 900 USD")).toMatchObject({ value: 900, currency: "USD" });
    expect(first("US$ 7,800")).toMatchObject({ value: 7800 });
  });

  it("keeps a rate's per-unit figure and notes the unit", () => {
    expect(first("£75/hour")).toMatchObject({ value: 75, unit: "hour" });
    expect(first("$120 per day")).toMatchObject({ value: 120, unit: "day" });
  });

  it("reads a range as its lowest figure", () => {
    expect(first("$2,000 - $5,000")).toMatchObject({ value: 2000, upper: 5000 });
    expect(first("€900–1.200")).toMatchObject({ value: 900, upper: 1200 });
    expect(first("1500 to 2000 EUR")).toMatchObject({ value: 1500, upper: 2000 });
    expect(first("€2-3k")).toMatchObject({ value: 2000, upper: 3000 });
  });

  it("reads a labelled number without currency, but not bare numbers, years or percentages", () => {
    expect(first("Price: 1500")).toMatchObject({ value: 1500, currency: null });
    expect(findMoney("Since 2012, 40 clients, 25% growth, call 555 0142")).toEqual([]);
    expect(findMoney("Fee: 18% of salary")).toEqual([]);
  });
});
