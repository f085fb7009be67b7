import * as v from "valibot";
import {
  category,
  condition,
  contactEmail,
  description,
  images,
  isoDateTime,
  price,
  structuredData,
  title,
} from "./fields.js";

/** PATCH /api/listings/{id}: any subset of the editable fields. */
export const listingPatchSchema = v.object({
  title: v.optional(title),
  description: v.optional(description),
  price: v.optional(v.nullable(price)),
  category: v.optional(category),
  condition: v.optional(condition),
  images: v.optional(images),
  structured_data: v.optional(v.nullable(structuredData)),
  contact_email: v.optional(v.nullable(contactEmail)),
  expires_at: v.optional(v.nullable(isoDateTime)),
  status: v.optional(v.picklist(["active", "paused"], "must be active or paused")),
});
export type ListingPatchInput = v.InferInput<typeof listingPatchSchema>;
