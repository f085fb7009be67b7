import type { Listing, ListingPatchInput, NewListingInput, ParsedDocument } from "@psm/core";
import { EMPTY_DRAFT, type ListingDraft } from "./components/listing-fields.js";

/** Core's command fields of a listing, with the form field and label each is shown with. */
export const LISTING_FIELDS = {
  title: { field: "title", label: "Title" },
  description: { field: "description", label: "Description" },
  category: { field: "category", label: "Category" },
  price: { field: "price", label: "Price" },
  priceUnit: { field: "price_unit", label: "Billed" },
  condition: { field: "condition", label: "Condition" },
  contactEmail: { field: "contact_email", label: "Contact email" },
  expiresAt: { field: "expires_at", label: "Available until" },
  images: { field: "images", label: "Image links" },
};

/** The listing fields of a submitted form, every one present. */
export function draftOf(form: Record<string, string>): ListingDraft {
  return {
    title: form.title ?? "",
    description: form.description ?? "",
    category: form.category ?? "",
    price: form.price ?? "",
    price_unit: form.price_unit ?? "fixed",
    condition: form.condition ?? "",
    contact_email: form.contact_email ?? "",
    expires_at: form.expires_at ?? "",
    images: form.images ?? "",
  };
}

/** A price as its field shows it: empty for "price on request". */
function priceText(price: number | null): string {
  return price === null ? "" : String(price);
}

/** A stored listing as the edit form shows it. */
export function draftOfListing(listing: Listing): ListingDraft {
  return {
    title: listing.title,
    description: listing.description,
    category: listing.category,
    price: priceText(listing.price),
    price_unit: listing.priceUnit,
    condition: listing.condition,
    contact_email: listing.contactEmail ?? "",
    expires_at: listing.expiresAt === null ? "" : listing.expiresAt.toISOString().slice(0, 10),
    images: listing.images.join("\n"),
  };
}

/**
 * What a document parser read, as a draft to review (the parser always names a category); a
 * document says nothing of the listing's terms, expiry or images, so those start empty.
 */
export function draftOfDocument(parsed: ParsedDocument): ListingDraft {
  return {
    ...EMPTY_DRAFT,
    title: parsed.title,
    description: parsed.description,
    category: parsed.category,
    price: priceText(parsed.price),
    price_unit: parsed.priceUnit,
    contact_email: parsed.contactEmail ?? "",
  };
}

/**
 * A date input's day as the instant the listing leaves search: the end of
 * that day in UTC. Anything else is passed on for core to judge.
 */
function expiryOf(value: string): string | null {
  const day = value.trim();
  if (day === "") return null;
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T23:59:59.999Z` : day;
}

function imagesOf(value: string): string[] {
  return value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/**
 * The edit command of a draft: every field set, an empty optional one
 * cleared (price on request, no contact email, no expiry, no images).
 */
export function patchOf(draft: ListingDraft): ListingPatchInput {
  return {
    title: draft.title,
    description: draft.description,
    // An empty choice is passed on as is, so core's own message names the field.
    category: draft.category as ListingPatchInput["category"],
    price: draft.price.trim() === "" ? null : draft.price.trim(),
    // Passed on as is, like the category: core names a unit it does not know.
    priceUnit: draft.price_unit as ListingPatchInput["priceUnit"],
    condition: draft.condition,
    contactEmail: draft.contact_email.trim() === "" ? null : draft.contact_email,
    expiresAt: expiryOf(draft.expires_at),
    images: imagesOf(draft.images),
  };
}

/** The create command of a draft: as patchOf, with core's default condition when none is given. */
export function newListingOf(draft: ListingDraft): NewListingInput {
  const patch = patchOf(draft);
  return {
    title: draft.title,
    description: draft.description,
    category: draft.category as NewListingInput["category"],
    price: patch.price,
    priceUnit: patch.priceUnit,
    condition: draft.condition.trim() === "" ? undefined : draft.condition,
    contactEmail: patch.contactEmail,
    expiresAt: patch.expiresAt,
    images: patch.images,
  };
}
