import {
  CATEGORIES,
  DEFAULT_CURRENCY,
  FACET_CAP,
  IDEMPOTENCY_TTL_MS,
  PAGE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  QUERY_MAX_LENGTH,
  QUERY_MAX_WORDS,
  SCOPE_DESCRIPTIONS,
  SCOPES,
  type Scope,
  type Settings,
} from "@psm/core";
import type { OperationsConfig } from "./config.js";
import { IDEMPOTENCY_POLICY } from "./kept-answers.js";
import { type AuthRequirement, authIn, type HttpMethod, type Operation } from "./operation.js";

/**
 * The version of this interface (decisions.md "Changes from 1.0.2"): 1.3.0 since every change of
 * 1.3.0 has landed (issues 28, 29 and 31).
 */
export const API_VERSION = "1.3.0";

/** One entry of the capabilities document: an operation as a caller needs to know it. */
export interface Capability {
  name: string;
  method: HttpMethod;
  path: string;
  auth: AuthRequirement;
  /** The scope a key limited to scopes needs (absent: none). */
  scope?: Scope;
  description: string;
}

/** GET /api/capabilities, in the shape decisions.md gives. */
export interface CapabilitiesDocument {
  name: string;
  version: string;
  security_mode: Settings["securityMode"];
  /** The ISO 4217 code of every price (CURRENCY). */
  currency: string;
  capabilities: Capability[];
  scopes: { name: Scope; description: string }[];
  categories: { value: string; label: string; display_slug: string }[];
  authentication: { type: string; header: string; format: string; how_obtained: string }[];
  known_gaps: string[];
  changes_from_1_0_2: string[];
  limits: Record<string, string | number>;
}

const GAPS_OPEN_IN_LEGACY = [
  "GET and POST /api/messages do not enforce authentication (LEGACY_PUBLIC_ENDPOINTS=true).",
  "POST /api/profiles/sync and POST /api/profiles/limit do not enforce authentication (LEGACY_PUBLIC_ENDPOINTS=true).",
  "GET /api/profiles shows every user's email to every caller, anonymous ones included (LEGACY_PUBLIC_ENDPOINTS=true).",
];

const CHANGES_FROM_1_0_2 = [
  "Versions: 1.1.0 added PATCH and DELETE /api/listings/{id}, the status filter, cursors and error codes; 1.2.0 and 1.3.0 the changes marked with them.",
  "Strict mode (default) requires an API key or JWT on GET/POST /api/messages and POST /api/profiles/sync and /limit.",
  "GET /api/auth/me accepts an API key as well as a JWT.",
  "POST /api/profiles/limit no longer increments: active_listings_count is derived from real listings.",
  "is_agent defaults to true when the caller authenticated with an API key.",
  "Error bodies gain `code`; lists gain `cursor`/`next_cursor`; JWTs gain `sub` beside `id`.",
  "GET /api/profiles shows a user's email only to that user and to admins (strict mode).",
  "1.2.0: User gains `email_verified`; signup mails a verification link and POST /api/auth/verify-email exists.",
  "1.2.0: a password reset of an account whose address was never proven deactivates the API keys created before it.",
  "1.2.0: a NUL character or ill-formed UTF-16 in a body field, query parameter or path is 400 `invalid_input`.",
  "1.2.0: the default display name no longer shows the email.",
  "1.2.0: `Idempotency-Key` on POST, PATCH and DELETE replays the stored answer of a retried request.",
  "1.2.0: `Cache-Control: no-store` on every answer that carries a secret or private data.",
  "1.3.0: Listing gains `price_unit` (fixed, the default, hour, day or month: what the price buys); prices are in the marketplace's `currency`, named in this document; POST /api/parse-pdf suggests a price_unit.",
  "1.3.0: API keys take `scopes` and `expires_at` and rotate with a grace period (POST /api/keys/{id}/rotate); the key list shows prefix, scopes and expiry; a deactivated key is 401 api_key_revoked, an expired one 401 api_key_expired; a call outside a key's scopes is 403 insufficient_scope. OAuth 2.1 (unless OAUTH=off): the server is its own authorization server, so an MCP client connects with its URL alone.",
  "1.3.0: GET /api/listings takes `q` (words in title and description, stemmed, case- and accent-insensitive, ranked by relevance), `min_price` and `max_price`, `sort` (newest, relevance, price_asc, price_desc) and `facets=category`; POST /api/keys takes an optional body {name?, scopes?, expires_at?}.",
  "1.3.0: every change worth telling is an event (GET /api/events, a transactional outbox); webhooks signed by Standard Webhooks 1.0.0 (/api/webhooks); notification mails with one-click unsubscribe (GET and PATCH /api/notifications); saved searches that tell their owner of new matches (/api/saved-searches).",
  "1.2.0: agents can connect over the Model Context Protocol at /mcp (stateless Streamable HTTP, the same X-API-Key or Bearer credentials; each tool named as the capability it runs); /llms.txt says how.",
];

/** The ten categories as the wire shows them (the capabilities document, the list_categories tool). */
export function categoryList(): { value: string; label: string; display_slug: string }[] {
  return CATEGORIES.map((c) => ({ value: c.value, label: c.label, display_slug: c.displaySlug }));
}

/** The capabilities of the running mode: every operation of the registry, as documented. */
export function capabilityList(
  operations: readonly Operation[],
  mode: Settings["securityMode"],
): Capability[] {
  return operations.map((op) => ({
    name: op.name,
    method: op.method,
    path: op.path,
    auth: authIn(op, mode),
    ...(op.scope === undefined ? {} : { scope: op.scope }),
    description: op.description,
  }));
}

/** Builds the capabilities document for the running mode from the registry and the limits in force. */
export function buildCapabilities(
  operations: readonly Operation[],
  settings: Settings,
  config: Pick<OperationsConfig, "maxJsonBytes" | "maxUploadBytes">,
): CapabilitiesDocument {
  const mode = settings.securityMode;
  return {
    name: "Professional-Services Marketplace",
    version: API_VERSION,
    security_mode: mode,
    currency: settings.currency ?? DEFAULT_CURRENCY,
    capabilities: capabilityList(operations, mode),
    scopes: SCOPES.map((name) => ({ name, description: SCOPE_DESCRIPTIONS[name] })),
    categories: categoryList(),
    authentication: [
      {
        type: "api_key",
        header: "X-API-Key",
        format: "psm_ followed by 64 lowercase hexadecimal characters",
        how_obtained:
          "POST /api/keys by an authenticated caller; the value is returned once. Give it `scopes` to limit it " +
          "(a call outside them is 403 insufficient_scope) and `expires_at` to end it (then 401 api_key_expired; " +
          "a deactivated key is 401 api_key_revoked); POST /api/keys/{id}/rotate replaces it with a grace period. " +
          "A key made without scopes carries all of its owner's rights (interface 1.0.2): an admin's key acts as " +
          "admin outside /api/admin, deleting any listing and reading any inbox; /api/admin/* needs a JWT",
      },
      {
        type: "jwt",
        header: "Authorization",
        format: "Bearer <token> (HS256, 7 days)",
        how_obtained: "POST /api/auth/login with email and password",
      },
      ...(settings.oauth
        ? [
            {
              type: "oauth2",
              header: "Authorization",
              format:
                "Bearer <access token> (1 hour, bound to /mcp or /api by `resource`, carrying the approved scopes)",
              how_obtained:
                `OAuth 2.1 with this server as the authorization server (${settings.publicUrl}/.well-known/oauth-authorization-server): ` +
                "authorization code with PKCE S256, the person approving the scopes on the consent page; register by " +
                "a Client ID Metadata Document (an https client_id) or POST /oauth/register (RFC 7591, public clients); " +
                "refresh tokens rotate (a reused one revokes the grant); POST /oauth/revoke ends it. An MCP client needs " +
                `only ${settings.publicUrl}/mcp: its metadata names the authorization server`,
            },
          ]
        : []),
    ],
    known_gaps: mode === "legacy" ? [...GAPS_OPEN_IN_LEGACY] : [],
    changes_from_1_0_2: [...CHANGES_FROM_1_0_2],
    limits: {
      listing_page_default: PAGE.defaultLimit,
      listing_page_max: PAGE.maxLimit,
      search_q_max_length: QUERY_MAX_LENGTH,
      search_q_max_words: QUERY_MAX_WORDS,
      search_facet_count_cap: FACET_CAP,
      min_password_length: PASSWORD_MIN_LENGTH,
      max_password_length: PASSWORD_MAX_LENGTH,
      jwt_lifetime: "7 days",
      json_body_max_bytes: config.maxJsonBytes,
      upload_max_bytes: config.maxUploadBytes,
      slots_personal: settings.slots.personal,
      slots_business: settings.slots.business,
      slots_admin: settings.slots.admin,
      idempotency_key: IDEMPOTENCY_POLICY,
      idempotency_key_max_length: 255,
      idempotency_key_ttl_hours: IDEMPOTENCY_TTL_MS / 3_600_000,
    },
  };
}
