import * as v from "valibot";
import { displayName } from "./fields.js";

/** users.updateDisplayName. */
export const updateUserSchema = v.object({ displayName });
export type UpdateUserInput = v.InferInput<typeof updateUserSchema>;
