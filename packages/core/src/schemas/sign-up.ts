import * as v from "valibot";
import { displayName, email, password } from "./fields.js";

/** auth.signUp. */
export const signUpSchema = v.object({
  email,
  password,
  displayName: v.optional(displayName),
});
export type SignUpInput = v.InferInput<typeof signUpSchema>;
