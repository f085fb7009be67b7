import { CATEGORIES, type Category, type Listing, newListingSchema, type PriceUnit } from "@psm/core";
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

/** How each unit reads after an amount: "USD 6,500 fixed", "USD 150 / hour". */
const UNIT_TEXT: Readonly<Record<PriceUnit, string>> = {
  fixed: "fixed",
  hour: "/ hour",
  day: "/ day",
  month: "/ month",
};

/** The price units as select options, in core's order. */
export const PRICE_UNIT_OPTIONS: readonly { value: PriceUnit; label: string }[] = [
  { value: "fixed", label: "Fixed price for the whole job" },
  { value: "hour", label: "Per hour" },
  { value: "day", label: "Per day" },
  { value: "month", label: "Per month" },
];

/**
 * A price as people read it, in the marketplace's currency and the listing's unit (decisions.md
 * 1.3.0 "Prices and units"): "USD 6,500 fixed", "USD 150 / hour", or "Price on request".
 */
export function formatPrice(listing: Pick<Listing, "price" | "priceUnit">, currency: string): string {
  if (listing.price === null) return "Price on request";
  return `${currency} ${PRICE.format(listing.price)} ${UNIT_TEXT[listing.priceUnit]}`;
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
