import * as v from "valibot";
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from "./fields.js";
import { text } from "./storable-text.js";

/** auth.logIn. Lengths are bounded so a huge password costs nothing. */
export const logInSchema = v.object({
  email: v.pipe(text, v.trim(), v.minLength(1, "is required"), v.maxLength(EMAIL_MAX_LENGTH, "is too long")),
  password: v.pipe(text, v.minLength(1, "is required"), v.maxLength(PASSWORD_MAX_LENGTH, "is too long")),
});
export type LogInInput = v.InferInput<typeof logInSchema>;
