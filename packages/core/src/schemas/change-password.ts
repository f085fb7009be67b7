import * as v from "valibot";
import { PASSWORD_MAX_LENGTH, password } from "./fields.js";
import { text } from "./storable-text.js";

/** auth.changePassword: the current password, then the new one. */
export const changePasswordSchema = v.object({
  currentPassword: v.pipe(
    text,
    v.minLength(1, "is required"),
    v.maxLength(PASSWORD_MAX_LENGTH, "is too long"),
  ),
  newPassword: password,
});
export type ChangePasswordInput = v.InferInput<typeof changePasswordSchema>;
