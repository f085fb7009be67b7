import * as v from "valibot";
import {
  category,
  condition,
  contactEmail,
  description,
  images,
  isoDateTime,
  price,
  priceUnit,
  structuredData,
  title,
} from "./fields.js";

/** listings.update: any subset of the editable fields. */
export const listingPatchSchema = v.object({
  title: v.optional(title),
  description: v.optional(description),
  price: v.optional(v.nullable(price)),
  priceUnit: v.optional(priceUnit),
  category: v.optional(category),
  condition: v.optional(condition),
  images: v.optional(images),
  structuredData: v.optional(v.nullable(structuredData)),
  contactEmail: v.optional(v.nullable(contactEmail)),
  expiresAt: v.optional(v.nullable(isoDateTime)),
  status: v.optional(v.picklist(["active", "paused"], "must be active or paused")),
});
export type ListingPatchInput = v.InferInput<typeof listingPatchSchema>;
