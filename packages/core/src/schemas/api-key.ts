import * as v from "valibot";
import { text } from "./storable-text.js";

/** apiKeys.create: a label for the key (default "API Key"). */
export const createApiKeySchema = v.object({
  name: v.optional(
    v.pipe(
      text,
      v.trim(),
      v.minLength(1, "must not be empty"),
      v.maxLength(100, "must be at most 100 characters"),
    ),
    "API Key",
  ),
});
export type CreateApiKeyInput = v.InferInput<typeof createApiKeySchema>;
