import type { ExtractedField, PriceUnit } from "@psm/core";
import { findMoney, type MoneyMention } from "./money.js";
import { snippet } from "./normalize.js";
import { extractPriceUnit } from "./price-unit.js";

// Words around an amount that say it is what the buyer pays...
const OFFER =
  /\b(price[sd]?|pricing|fees?|costs?|rates?|from|starting|starts|only|packages?|fixed|flat|per|retainer|quote|charges?|tariff|total|pay|investment|day rate|hourly|monthly|engagement|project|plan)\b/i;
// ...or that it is some other figure: a client's revenue, a saving, a fine, a salary.
const DECOY =
  /\b(revenues?|turnover|funding|raised|saved|savings?|save|worth|fines?|penalt\w*|spend|spent|enterprise value|transactions?|salar(y|ies)|arr|mrr|gmv|aum|assets|generated|losses|damages|breach|average|budgets? of|managed|grew|increase[sd]?|sales of|deals?|portfolio|compensation|round)\b/i;
const LABEL = /^\s*(price|pricing|fee|fees|rate|rates|cost|investment|budget)\b/i;

function lineAround(text: string, index: number): { line: string; start: number } {
  const start = text.lastIndexOf("\n", index - 1) + 1;
  const end = text.indexOf("\n", index);
  return { line: text.slice(start, end < 0 ? undefined : end), start };
}

/** How strongly the words around a mention say it is the offered price. */
function judge(text: string, m: MoneyMention): number {
  const { line, start } = lineAround(text, m.index);
  const at = m.index - start;
  // Only the clause the amount stands in speaks for it: "we saved $2M; our fee is $500".
  const before =
    line
      .slice(Math.max(0, at - 60), at)
      .split(/[;!?]|\.\s/)
      .pop() ?? "";
  const after = line.slice(at + m.length, at + m.length + 40);
  let score = 0;
  if (OFFER.test(before) || OFFER.test(after)) score += 2;
  if (LABEL.test(line)) score += 1;
  if (m.currency !== null) score += 1;
  if (DECOY.test(before) || DECOY.test(after.slice(0, 25))) score -= 4;
  if (m.value >= 1_000_000) score -= 1;
  const previous = lineAround(text, Math.max(0, start - 1)).line;
  if (start > 0 && /^(price|pricing|fees?|rates?|investment|packages?)\b/i.test(previous)) score += 1;
  return score;
}

/**
 * The offered price and what it buys. The rule: every money amount is judged by the words around
 * it (price, fee, from, per... for; revenue, savings, salary, fine... against); the best judged one
 * wins, the earliest on a tie. A range gives its lowest figure (the price the offer starts at); a
 * rate (`£75/hour`) keeps its per-unit figure, and its unit (price-unit.ts). Null when no amount is
 * judged to be a price.
 */
export function extractOffer(text: string): {
  price: ExtractedField<number | null>;
  unit: ExtractedField<PriceUnit>;
} {
  let best: { m: MoneyMention; score: number } | null = null;
  for (const m of findMoney(text)) {
    const score = judge(text, m);
    if (score >= 0 && (best === null || score > best.score)) best = { m, score };
  }
  if (best === null)
    return { price: { value: null, confidence: 0.6, source: null }, unit: extractPriceUnit("", null, 0) };
  const { line, start } = lineAround(text, best.m.index);
  const confidence = Math.min(0.95, 0.45 + 0.1 * best.score);
  return {
    price: { value: best.m.value, confidence, source: snippet(line) },
    unit: extractPriceUnit(line, best.m, start),
  };
}

/** The offered price alone (extractOffer). */
export function extractPrice(text: string): ExtractedField<number | null> {
  return extractOffer(text).price;
}
