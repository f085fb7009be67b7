import * as v from "valibot";
import { token } from "./fields.js";

/** auth.verifyEmail (and the token checks of the reset and verification pages). */
export const verifyEmailSchema = v.object({ token });
export type VerifyEmailInput = v.InferInput<typeof verifyEmailSchema>;
