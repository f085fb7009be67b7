import { take } from "./normalize.js";

/** A money amount found in text, before it is judged as the offered price or not. */
export interface MoneyMention {
  /** The amount, or the lower bound of a range. */
  value: number;
  /** The upper bound when the text gave a range. */
  upper: number | null;
  currency: string | null;
  /** "hour", "day", ... when the amount is a rate. */
  unit: string | null;
  /** Offset of the mention in the text, and its length. */
  index: number;
  length: number;
}

const CUR_BEFORE = String.raw`(?:US\$|(?:USD|EUR|GBP|CHF|CAD|AUD)\b|[$€£])`;
const CUR_AFTER = String.raw`(?:[$€£]|(?:USD|EUR|GBP|CHF|CAD|AUD|dollars?|euros?|pounds?)\b)`;
// Thousands grouped by . , ' or a space (1.500 / 1,500 / 1'500 / 1 500), optional 1-2 decimals;
// or a plain number with optional decimals. Every quantifier is bounded (six groups, fifteen
// digits: past a trillion nothing is a price), so each position costs the regex a fixed amount
// of work: unbounded, "1 111 111 ... 111" made it backtrack over every group from every group.
const AMOUNT = String.raw`(?:\d{1,3}(?:[.,'’\u00a0\u202f ]\d{3}){1,6}(?!\d)(?:[.,]\d{1,2})?|\d{1,15}(?:[.,]\d{1,2})?)`;
const MULT = String.raw`(?:(?:k|K|m|M|mn|bn)\b|\s(?:thousand|million|billion)\b)`;
const DASH = String.raw`\s?(?:-|–|—|to|bis)\s?`;

const BEFORE = new RegExp(
  String.raw`(${CUR_BEFORE})\s?(${AMOUNT})(${MULT})?(?:${DASH}(?:${CUR_BEFORE})?\s?(${AMOUNT})(${MULT})?)?`,
  "gi",
);
const AFTER = new RegExp(
  String.raw`(?<![\w.,])(${AMOUNT})(${MULT})?(?:${DASH}(${AMOUNT})(${MULT})?)?\s?(${CUR_AFTER})`,
  "gi",
);
const LABELLED = new RegExp(
  String.raw`\b(?:price|pricing|fee|cost|rate|investment)\s?:\s?(${AMOUNT})(${MULT})?(?![\d%])`,
  "gi",
);
const UNIT =
  /^\s?(?:\/|per|an?)\s?(hour|hr|h|day|month|mo|week|wk|year|yr|session|user|seat|page|article|post|hire|person|head)\b/i;

/**
 * Reads a written amount: the last of `.` and `,` is the decimal mark when both occur; a single
 * mark followed by exactly three digits groups thousands (1.500 and 1,500 are both 1500);
 * k/thousand and m/million multiply.
 */
export function parseAmount(raw: string, multiplier?: string): number | null {
  let s = raw.replace(/['’\u00a0\u202f ]/g, "");
  const dot = s.lastIndexOf(".");
  const comma = s.lastIndexOf(",");
  if (dot >= 0 && comma >= 0) {
    const decimal = dot > comma ? "." : ",";
    s = s.replaceAll(decimal === "." ? "," : ".", "").replace(decimal, ".");
  } else if (dot >= 0 || comma >= 0) {
    const mark = dot >= 0 ? "." : ",";
    const parts = s.split(mark);
    s = parts.length > 2 || parts[parts.length - 1]?.length === 3 ? parts.join("") : parts.join(".");
  }
  let value = Number(s);
  if (!Number.isFinite(value)) return null;
  const m = multiplier?.trim().toLowerCase();
  if (m === "k" || m === "thousand") value *= 1_000;
  if (m === "m" || m === "mn" || m === "million") value *= 1_000_000;
  if (m === "bn" || m === "billion") value *= 1_000_000_000;
  return Math.round(value * 100) / 100;
}

function mention(
  text: string,
  match: RegExpExecArray,
  a: number,
  currency: string | null,
): MoneyMention | null {
  const upperRaw = match[a + 2];
  const upper = upperRaw === undefined ? null : parseAmount(upperRaw, match[a + 3] ?? match[a + 1]);
  let value = parseAmount(match[a] ?? "", match[a + 1]);
  // "€2-3k": the range's multiplier belongs to both ends, unless that makes the lower end larger.
  const shared = match[a + 1] === undefined ? parseAmount(match[a] ?? "", match[a + 3]) : null;
  if (shared !== null && upper !== null && shared <= upper) value = shared;
  if (value === null) return null;
  const end = match.index + match[0].length;
  const unit = UNIT.exec(text.slice(end, end + 16))?.[1]?.toLowerCase() ?? null;
  const low = upper !== null && upper < value ? upper : value;
  return {
    value: low,
    upper: upper === null ? null : Math.max(value, upper),
    currency,
    unit,
    index: match.index,
    length: match[0].length,
  };
}

/** Amounts looked at, at most: a real offer states a handful, a hostile text could state millions. */
const MAX_MENTIONS = 200;

/** The money amounts in `text` (at most 200 of each form): with a currency before or after it, or after a "Price:" label. */
export function findMoney(text: string): MoneyMention[] {
  const found: MoneyMention[] = [];
  const taken = (index: number) => found.some((m) => index >= m.index && index < m.index + m.length);
  for (const match of take(text.matchAll(BEFORE), MAX_MENTIONS)) {
    const m = mention(text, match, 2, match[1] ?? null);
    if (m !== null) found.push(m);
  }
  for (const match of take(text.matchAll(AFTER), MAX_MENTIONS)) {
    if (taken(match.index)) continue;
    const m = mention(text, match, 1, match[5] ?? null);
    if (m !== null) found.push(m);
  }
  for (const match of take(text.matchAll(LABELLED), MAX_MENTIONS)) {
    const at = match.index + match[0].indexOf(match[1] ?? "");
    if (taken(at)) continue;
    const value = parseAmount(match[1] ?? "", match[2]);
    if (value !== null)
      found.push({
        value,
        upper: null,
        currency: null,
        unit: null,
        index: at,
        length: (match[1] ?? "").length,
      });
  }
  return found.sort((a, b) => a.index - b.index);
}
