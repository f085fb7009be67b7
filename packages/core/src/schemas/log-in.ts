import * as v from "valibot";
import { text } from "./storable-text.js";

/** POST /api/auth/login. Lengths are bounded so a huge password costs nothing. */
export const logInSchema = v.object({
  email: v.pipe(text, v.trim(), v.minLength(1, "is required"), v.maxLength(254, "is too long")),
  password: v.pipe(text, v.minLength(1, "is required"), v.maxLength(1024, "is too long")),
});
export type LogInInput = v.InferInput<typeof logInSchema>;
