import * as v from "valibot";
import { MAX_ROTATION_GRACE_SECONDS } from "../domain/api-key.js";
import { SCOPES } from "../domain/scopes.js";
import { isoDateTime } from "./fields.js";
import { text } from "./storable-text.js";

const scopeList = v.pipe(
  v.array(v.picklist(SCOPES, `must each be one of ${SCOPES.join(", ")}`)),
  v.minLength(1, "must name at least one scope (leave it out for every scope)"),
  v.maxLength(SCOPES.length, `must have at most ${SCOPES.length} entries`),
);

/**
 * apiKeys.create: a label for the key (default "API Key"), the scopes it is limited to (none:
 * every scope its user may hold, as 1.0.2 keys), and when it expires (none: never).
 */
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
  scopes: v.optional(scopeList),
  expiresAt: v.optional(isoDateTime),
});
export type CreateApiKeyInput = v.InferInput<typeof createApiKeySchema>;

/** apiKeys.rotate (with the key's `id`): how long the old key keeps working beside its replacement. */
export const rotateApiKeySchema = v.object({
  graceSeconds: v.optional(
    v.pipe(
      v.number("must be a number"),
      v.integer("must be a whole number of seconds"),
      v.minValue(0, "must be at least 0"),
      v.maxValue(MAX_ROTATION_GRACE_SECONDS, `must be at most ${MAX_ROTATION_GRACE_SECONDS}`),
    ),
  ),
});
export type RotateApiKeyInput = v.InferInput<typeof rotateApiKeySchema>;
