import { CATEGORIES, type Category } from "@psm/core";

const LABELS = new Map<string, string>(CATEGORIES.map((c) => [c.value, c.label]));

/** A category's label ("Data & Analytics"). */
export function categoryLabel(category: Category): string {
  return LABELS.get(category) ?? category;
}

/** The categories as select options, in the interface's order. */
export const CATEGORY_OPTIONS: readonly { value: string; label: string }[] = CATEGORIES.map((c) => ({
  value: c.value,
  label: c.label,
}));

const PRICE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** A price as people read it; the interface has no currency, so none is invented. */
export function formatPrice(price: number | null): string {
  return price === null ? "Price on request" : PRICE.format(price);
}

const DATE = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const DATE_TIME = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

/** A day ("3 Mar 2026"), in UTC so every reader sees the same day. */
export function formatDate(date: Date): string {
  return DATE.format(date);
}

/** A moment ("3 Mar 2026, 14:05 UTC"). */
export function formatDateTime(date: Date): string {
  return DATE_TIME.format(date);
}

/** The `yyyy-mm-dd` of a date input for a stored instant (UTC). */
export function dateInputValue(date: Date | null): string {
  return date === null ? "" : date.toISOString().slice(0, 10);
}
