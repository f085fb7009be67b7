import * as v from "valibot";
import { ACCOUNT_TYPES } from "../domain/user.js";
import { displayName, email, uuid } from "./fields.js";

/** profiles.sync. */
export const syncProfileSchema = v.object({
  id: uuid,
  email,
  displayName: v.optional(displayName),
  accountType: v.optional(v.picklist(ACCOUNT_TYPES, "must be personal or business")),
});
export type SyncProfileInput = v.InferInput<typeof syncProfileSchema>;

/** The user the profile queries (isAdmin, getLimit, postLimit) are about. */
export const userIdSchema = v.object({ userId: uuid });
export type UserIdInput = v.InferInput<typeof userIdSchema>;

/** profiles.displayNames: at most a page of users (100) per call. */
export const displayNamesSchema = v.object({
  userIds: v.pipe(v.array(uuid), v.maxLength(100, "must hold at most 100 ids")),
});
export type DisplayNamesInput = v.InferInput<typeof displayNamesSchema>;
