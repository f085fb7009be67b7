import * as v from "valibot";
import { updatePasswordSchema } from "./password-reset.js";

/** POST /api/auth/verify-email: the token of the link mailed at sign-up. */
export const verifyEmailSchema = v.object({ token: updatePasswordSchema.entries.token });
export type VerifyEmailInput = v.InferInput<typeof verifyEmailSchema>;
