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

/** listings.create. Unknown fields (id, userId, views, status...) are dropped. */
export const newListingSchema = v.object({
  title,
  description,
  category,
  price: v.optional(v.nullable(price)),
  priceUnit: v.optional(priceUnit, "fixed"),
  condition: v.optional(condition, "good"),
  images: v.optional(images, () => []),
  structuredData: v.optional(structuredData, () => ({ ai_generated: true })),
  contactEmail: v.optional(v.nullable(contactEmail)),
  expiresAt: v.optional(v.nullable(isoDateTime)),
});
export type NewListingInput = v.InferInput<typeof newListingSchema>;
