import * as v from "valibot";
import type { Deps } from "../../deps.js";
import { isMetadataDocumentClientId, type OAuthClient } from "../../domain/oauth.js";
import { OAuthError } from "../../domain/oauth-error.js";
import { clientMetadataSchema } from "../../schemas/oauth-client.js";
import { toBase64Url } from "../../support/crypto.js";

/** A client as the authorization endpoint sees it, however it was registered. */
export type ResolvedClient = Pick<OAuthClient, "id" | "name" | "redirectUris">;

/** The shape of a registered client's id: `oc_` and 22 base64url characters (128 random bits). */
const REGISTERED_ID = /^oc_[A-Za-z0-9_-]{22}$/;

/** Metadata, validated, or `invalid_client_metadata` (or `invalid_redirect_uri`) naming the first problem. */
function parseMetadata(input: unknown) {
  const result = v.safeParse(clientMetadataSchema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = issue?.path?.map((item) => String(item.key)).join(".") ?? "";
  const code = path.startsWith("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata";
  throw new OAuthError(code, `${path === "" ? "metadata" : path}: ${issue?.message ?? "invalid"}`);
}

/**
 * Registers a public client (RFC 7591 dynamic registration): its redirect URIs are checked
 * (https, loopback http, or an app's own scheme) and it gets a random id and no secret.
 */
export async function registerClient(
  deps: Pick<Deps, "repos" | "clock" | "random">,
  metadata: unknown,
): Promise<OAuthClient> {
  const data = parseMetadata(metadata);
  const client: OAuthClient = {
    id: `oc_${toBase64Url(deps.random.bytes(16))}`,
    name: data.client_name ?? "Unnamed application",
    redirectUris: data.redirect_uris,
    createdAt: deps.clock.now(),
  };
  await deps.repos.oauthClients.insert(client);
  return client;
}

/**
 * The client `clientId` names: a registered one, or one described by the Client ID Metadata
 * Document at that URL (fetched by `clientMetadata`, whose `client_id` must be the URL itself).
 * `invalid_client` when there is none.
 */
export async function resolveClient(
  deps: Pick<Deps, "repos" | "clientMetadata">,
  clientId: string,
): Promise<ResolvedClient> {
  if (isMetadataDocumentClientId(clientId)) {
    if (!deps.clientMetadata)
      throw new OAuthError("invalid_client", "Client ID Metadata Documents are not accepted");
    const fetched = await deps.clientMetadata.fetch(clientId);
    if (!fetched.ok)
      throw new OAuthError("invalid_client", `The client's metadata document: ${fetched.reason}`);
    const data = parseMetadata(fetched.document);
    if (data.client_id !== clientId) {
      throw new OAuthError("invalid_client", "The metadata document's client_id is not its own URL");
    }
    return {
      id: clientId,
      name: data.client_name ?? new URL(clientId).host,
      redirectUris: data.redirect_uris,
    };
  }
  const client = REGISTERED_ID.test(clientId) ? await deps.repos.oauthClients.findById(clientId) : null;
  if (!client) throw new OAuthError("invalid_client", "Unknown client_id");
  return client;
}
