import * as v from "valibot";

/** POST /api/keys (body optional). */
export const createApiKeySchema = v.object({
  name: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, "must not be empty"),
      v.maxLength(100, "must be at most 100 characters"),
    ),
    "API Key",
  ),
});
export type CreateApiKeyInput = v.InferInput<typeof createApiKeySchema>;
