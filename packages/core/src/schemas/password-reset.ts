import * as v from "valibot";
import { email, password, token } from "./fields.js";

/** auth.requestPasswordReset. */
export const requestPasswordResetSchema = v.object({ email });
export type RequestPasswordResetInput = v.InferInput<typeof requestPasswordResetSchema>;

/** auth.updatePassword: the token of the mailed link and the new password. */
export const updatePasswordSchema = v.object({ token, newPassword: password });
export type UpdatePasswordInput = v.InferInput<typeof updatePasswordSchema>;
