import * as v from "valibot";
import { isRegistrableRedirectUri, MAX_CLIENT_NAME_LENGTH, MAX_REDIRECT_URIS } from "../domain/oauth.js";
import { text } from "./storable-text.js";

/**
 * Client metadata as RFC 7591 names it: the body of a dynamic registration and the content of a
 * Client ID Metadata Document. Only what a public client needs is read; other members are ignored.
 * `token_endpoint_auth_method`, when given, must be `none`: clients hold no secret here.
 */
export const clientMetadataSchema = v.object({
  client_id: v.optional(v.pipe(text, v.maxLength(2048))),
  client_name: v.optional(v.pipe(text, v.trim(), v.minLength(1), v.maxLength(MAX_CLIENT_NAME_LENGTH))),
  redirect_uris: v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.check(
          isRegistrableRedirectUri,
          "must be https, http on a loopback host, or an app's own scheme, without a fragment",
        ),
      ),
    ),
    v.minLength(1, "must name at least one redirect URI"),
    v.maxLength(MAX_REDIRECT_URIS, `must have at most ${MAX_REDIRECT_URIS} entries`),
  ),
  token_endpoint_auth_method: v.optional(v.literal("none", "must be none: public clients only")),
  grant_types: v.optional(
    v.pipe(
      v.array(
        v.picklist(["authorization_code", "refresh_token"], "must be authorization_code or refresh_token"),
      ),
      v.maxLength(2),
    ),
  ),
  response_types: v.optional(v.pipe(v.array(v.literal("code", "must be code")), v.maxLength(1))),
});
export type ClientMetadataInput = v.InferInput<typeof clientMetadataSchema>;
