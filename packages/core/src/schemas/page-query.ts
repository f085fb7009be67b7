import * as v from "valibot";
import { PAGE } from "../domain/limits.js";
import { cursor, limit } from "./fields.js";

/** Paging of profiles, keys and the admin lists (default 100). */
export const pageQuerySchema = v.object({
  limit: limit(PAGE.adminDefaultLimit),
  cursor: v.optional(cursor),
});
export type PageQueryInput = v.InferInput<typeof pageQuerySchema>;
