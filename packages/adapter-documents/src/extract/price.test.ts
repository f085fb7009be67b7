import { describe, expect, it } from "vitest";
import { extractOffer, extractPrice } from "./price.js";

const price = (text: string) => extractPrice(text).value;

describe("extractPrice", () => {
  it.each([
    ["Fixed fee: $1,500", 1500],
    ["Investment: 1.500,00 € plus VAT", 1500],
    ["Price: EUR 2k per workshop", 2000],
    ["from 900 USD per session", 900],
    ["Rate: £75/hour", 75],
    ["Monthly retainer: $2,000 - $5,000", 2000],
  ] as const)("%s -> %s", (text, expected) => {
    expect(price(text)).toBe(expected);
  });

  it("is null when the document states no price", () => {
    expect(extractPrice("Fees are agreed after a scoping call.")).toMatchObject({
      value: null,
      source: null,
    });
  });

  it("skips figures that are not the offer: revenue, savings, fines, salaries", () => {
    expect(price("Our clients range from $10M to $400M in annual revenue.")).toBeNull();
    expect(price("Salaries range from $90,000 to $180,000.")).toBeNull();
    expect(price("Fines reach €20 million. Our flat fee: €3,500.")).toBe(3500);
    expect(price("We saved clients $2M; our fee starts at $500.")).toBe(500);
  });

  it("takes the first of equally good offers and gives its line as the source", () => {
    const result = extractPrice("Starter - £1,250 per month\nGrowth - £2,400 per month");
    expect(result).toMatchObject({ value: 1250, source: "Starter - £1,250 per month" });
    expect(result.confidence).toBeGreaterThan(0.5);
  });
});

describe("extractOffer's unit (decisions.md 1.3.0: per hour, /day, monthly retainer)", () => {
  it.each([
    ["Fixed fee: $1,500", "fixed"],
    ["Rate: £75/hour", "hour"],
    ["Our fee is 150 EUR per hour, billed monthly.", "hour"],
    ["Day rate: €900", "day"],
    ["Price: $900/day plus travel", "day"],
    ["Monthly retainer: $2,000 - $5,000", "month"],
    ["Pricing: EUR 3,200 a month, minimum three months", "month"],
    ["from 900 USD per session", "fixed"],
    ["Fees are agreed after a scoping call.", "fixed"],
  ] as const)("%s -> %s", (text, unit) => {
    expect(extractOffer(text).unit.value).toBe(unit);
  });

  it("is sure of a unit written after the amount, less of one in the clause, least of one it cannot carry", () => {
    expect(extractOffer("Rate: £75/hour").unit.confidence).toBeGreaterThan(
      extractOffer("Day rate: €900").unit.confidence,
    );
    expect(extractOffer("from 900 USD per session").unit.confidence).toBeLessThan(0.5);
  });
});
