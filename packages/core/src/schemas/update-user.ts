import * as v from "valibot";
import { displayName } from "./fields.js";

/** PUT /api/users/update */
export const updateUserSchema = v.object({ display_name: displayName });
export type UpdateUserInput = v.InferInput<typeof updateUserSchema>;
