import * as v from "valibot";
import { text } from "./storable-text.js";

/**
 * A command naming one record by `id`. The id is checked as a UUID by the use
 * case, which decides whether a malformed one is a 400 or its own not-found.
 */
export const idSchema = v.object({ id: text });
export type IdInput = v.InferInput<typeof idSchema>;
