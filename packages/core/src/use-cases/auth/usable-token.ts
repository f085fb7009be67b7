import * as v from "valibot";
import { verifyEmailSchema } from "../../schemas/verify-email.js";

/**
 * The token of a link-page check, or null when it could never be valid. A
 * page's GET only asks whether to show the form: a malformed token is "no",
 * not an error.
 */
export function usableToken(input: unknown): string | null {
  const result = v.safeParse(verifyEmailSchema, input);
  return result.success ? result.output.token : null;
}
