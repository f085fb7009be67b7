import * as v from "valibot";
import { ACCOUNT_TYPES } from "../domain/user.js";
import { displayName, email, uuid } from "./fields.js";

/** POST /api/profiles/sync */
export const syncProfileSchema = v.object({
  id: uuid,
  email,
  display_name: v.optional(displayName),
  account_type: v.optional(v.picklist(ACCOUNT_TYPES, "must be personal or business")),
});
export type SyncProfileInput = v.InferInput<typeof syncProfileSchema>;

/** ?user_id= of the profile queries, and the body of POST /api/profiles/limit */
export const userIdSchema = v.object({ user_id: uuid });
export type UserIdInput = v.InferInput<typeof userIdSchema>;
