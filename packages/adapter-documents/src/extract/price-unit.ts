import type { ExtractedField, PriceUnit } from "@psm/core";
import type { MoneyMention } from "./money.js";
import { snippet } from "./normalize.js";

// The units a rate is written with right after its amount (money.ts reads them: "/day", "per hour").
const RATE_UNITS: Readonly<Record<string, PriceUnit>> = {
  hour: "hour",
  hr: "hour",
  h: "hour",
  day: "day",
  month: "month",
  mo: "month",
};

// Words in the amount's clause that name the unit without "per": "hourly rate", "day rate",
// "monthly retainer". Checked in this order, so "daily rate of $900 (about $110 hourly)" is a day.
const UNIT_WORDS: readonly [RegExp, PriceUnit][] = [
  [/\b(hourly|per[\s-]hour|an hour|hour rate)\b/i, "hour"],
  [/\b(daily|day[\s-]rate|per[\s-]day|a day)\b/i, "day"],
  [/\b(monthly|retainer|per[\s-]month|a month)\b/i, "month"],
];

/**
 * What the chosen price buys (decisions.md 1.3.0: "per hour", "/day", "monthly retainer"): the
 * unit written after the amount, else a unit word in the clause around it, else `fixed`. A rate
 * in a unit listings cannot carry (per session, per seat, a year) stays `fixed`, with a low
 * confidence: the author should say what the price buys.
 */
export function extractPriceUnit(
  line: string,
  at: MoneyMention | null,
  start: number,
): ExtractedField<PriceUnit> {
  if (at === null) return { value: "fixed", confidence: 0.6, source: null };
  const written = at.unit === null ? undefined : RATE_UNITS[at.unit];
  if (written !== undefined) return { value: written, confidence: 0.9, source: snippet(line) };
  if (at.unit !== null) return { value: "fixed", confidence: 0.3, source: snippet(line) };
  const offset = at.index - start;
  const clause = line.slice(Math.max(0, offset - 60), offset + at.length + 40);
  for (const [words, unit] of UNIT_WORDS) {
    if (words.test(clause)) return { value: unit, confidence: 0.75, source: snippet(line) };
  }
  return { value: "fixed", confidence: 0.6, source: snippet(line) };
}
