import { CATEGORIES, type Category, type Listing, newListingSchema } from "@psm/core";
import * as v from "valibot";

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

/**
 * What core stores when an author leaves the condition empty ("good"), read from its schema so
 * the two cannot drift apart.
 */
const DEFAULT_CONDITION: string = v.getDefault(newListingSchema.entries.condition);

/**
 * A listing's condition if its author set one, else null. Core stores its default whenever the
 * field is left empty (a brochure's draft always leaves it empty), and a stored "good" cannot say
 * whether it was typed or defaulted, so the default counts as not set: "Condition: good" on a
 * service tells a reader nothing. Empty (an edit that cleared the field) is not set either.
 */
export function setCondition(listing: Pick<Listing, "condition">): string | null {
  const condition = listing.condition.trim();
  return condition === "" || condition === DEFAULT_CONDITION ? null : condition;
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
