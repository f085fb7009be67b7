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

/** POST /api/listings (NewListing). Unknown fields (id, user_id, views, status...) are dropped. */
export const newListingSchema = v.object({
  title,
  description,
  category,
  price: v.optional(v.nullable(price)),
  condition: v.optional(condition, "good"),
  images: v.optional(images, () => []),
  structured_data: v.optional(structuredData, () => ({ ai_generated: true })),
  contact_email: v.optional(v.nullable(contactEmail)),
  expires_at: v.optional(v.nullable(isoDateTime)),
});
export type NewListingInput = v.InferInput<typeof newListingSchema>;
