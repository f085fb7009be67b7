import * as v from "valibot";
import { displayName, email, password } from "./fields.js";

/** POST /api/auth/signup */
export const signUpSchema = v.object({
  email,
  password,
  display_name: v.optional(displayName),
});
export type SignUpInput = v.InferInput<typeof signUpSchema>;
