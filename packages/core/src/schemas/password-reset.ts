import * as v from "valibot";
import { email, password } from "./fields.js";
import { text } from "./storable-text.js";

/** POST /api/auth/reset-password */
export const requestPasswordResetSchema = v.object({ email });
export type RequestPasswordResetInput = v.InferInput<typeof requestPasswordResetSchema>;

/** POST /api/auth/update-password */
export const updatePasswordSchema = v.object({
  token: v.pipe(text, v.minLength(1, "is required"), v.maxLength(512, "is not a valid token")),
  new_password: password,
});
export type UpdatePasswordInput = v.InferInput<typeof updatePasswordSchema>;
