import type { SecurityMode, Settings } from "../../deps.js";
import { CATEGORIES } from "../../domain/category.js";
import { PAGE } from "../../domain/limits.js";

/** The version of this interface (decisions.md "Changes from 1.0.2": 1.2.0). */
export const API_VERSION = "1.2.0";

export type AuthRequirement = "public" | "key-or-jwt" | "jwt" | "admin";

export interface Capability {
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  auth: AuthRequirement;
  description: string;
}

/** GET /api/capabilities, in the shape decisions.md gives. */
export interface CapabilitiesDocument {
  name: string;
  version: string;
  security_mode: SecurityMode;
  capabilities: Capability[];
  categories: { value: string; label: string; display_slug: string }[];
  authentication: { type: string; header: string; format: string; how_obtained: string }[];
  known_gaps: string[];
  changes_from_1_0_2: string[];
  limits: Record<string, string | number>;
}

/** The auth rule of every capability in a mode: gaps 3 and 4 are public in legacy mode. */
export function capabilityTable(mode: SecurityMode): Capability[] {
  const legacyPublic = (auth: AuthRequirement): AuthRequirement => (mode === "legacy" ? "public" : auth);
  const c = (
    name: string,
    method: Capability["method"],
    path: string,
    auth: AuthRequirement,
    description: string,
  ) => ({
    name,
    method,
    path,
    auth,
    description,
  });
  return [
    c("capabilities", "GET", "/api/capabilities", "public", "This document."),
    c(
      "search_listings",
      "GET",
      "/api/listings",
      "public",
      "Search active listings by category, title substring and author; cursor-paged, newest first.",
    ),
    c(
      "create_listing",
      "POST",
      "/api/listings",
      "key-or-jwt",
      "Publish a listing within the author's slots.",
    ),
    c("get_listing", "GET", "/api/listings/{id}", "public", "One listing, whatever its status."),
    c(
      "update_listing",
      "PATCH",
      "/api/listings/{id}",
      "key-or-jwt",
      "Edit or pause a listing (author or admin).",
    ),
    c("delete_listing", "DELETE", "/api/listings/{id}", "key-or-jwt", "Delete a listing (author or admin)."),
    c("record_view", "POST", "/api/listings/{id}/view", "public", "Count one view."),
    c("sign_up", "POST", "/api/auth/signup", "public", "Create an account."),
    c("log_in", "POST", "/api/auth/login", "public", "Exchange email and password for a 7-day JWT."),
    c("me", "GET", "/api/auth/me", "public", "The calling user (JWT or API key), or null."),
    c("log_out", "POST", "/api/auth/logout", "public", "Client-side logout; no server state."),
    c("request_password_reset", "POST", "/api/auth/reset-password", "public", "Mail a password-reset link."),
    c(
      "update_password",
      "POST",
      "/api/auth/update-password",
      "public",
      "Set a new password with a reset token.",
    ),
    c(
      "verify_email",
      "POST",
      "/api/auth/verify-email",
      "public",
      "Prove the account's address with the token of the link mailed at sign-up.",
    ),
    c("list_api_keys", "GET", "/api/keys", "key-or-jwt", "The caller's keys (all keys for an admin)."),
    c(
      "create_api_key",
      "POST",
      "/api/keys",
      "key-or-jwt",
      "Create a key; its value is shown once. A key carries its owner's rights: an admin's key acts as " +
        "admin outside /api/admin (which needs a JWT), and the answer warns an admin of it.",
    ),
    c("deactivate_api_key", "DELETE", "/api/keys/{id}", "key-or-jwt", "Deactivate a key."),
    c(
      "list_messages",
      "GET",
      "/api/messages",
      legacyPublic("key-or-jwt"),
      "Messages received or sent, newest first.",
    ),
    c(
      "send_message",
      "POST",
      "/api/messages",
      legacyPublic("key-or-jwt"),
      "Message a listing's author (or reply).",
    ),
    c(
      "list_profiles",
      "GET",
      "/api/profiles",
      "public",
      "All profiles; emails only to their owner and admins.",
    ),
    c(
      "sync_profile",
      "POST",
      "/api/profiles/sync",
      legacyPublic("key-or-jwt"),
      "Create or update a profile.",
    ),
    c("admin_check", "GET", "/api/profiles/admin", "public", "Whether a user is an admin."),
    c("listing_limit", "GET", "/api/profiles/limit", "public", "A user's listing slots."),
    c(
      "listing_limit_compat",
      "POST",
      "/api/profiles/limit",
      legacyPublic("key-or-jwt"),
      "Same answer as the GET; moves nothing.",
    ),
    c("update_user", "PUT", "/api/users/update", "jwt", "Change the caller's display name."),
    c(
      "parse_document",
      "POST",
      "/api/parse-pdf",
      "key-or-jwt",
      "Pre-fill a listing from a PDF, image or text file.",
    ),
    c("admin_list_posts", "GET", "/api/admin/posts", "admin", "All listings of any status."),
    c("admin_delete_post", "DELETE", "/api/admin/posts", "admin", "Delete a listing by body post_id."),
    c("admin_delete_post_by_id", "DELETE", "/api/admin/posts/{id}", "admin", "Delete a listing."),
    c("admin_list_users", "GET", "/api/admin/users", "admin", "All users."),
    c(
      "admin_delete_user",
      "DELETE",
      "/api/admin/users",
      "admin",
      "Delete a user by body user_id, with listings and keys.",
    ),
    c(
      "admin_delete_user_by_id",
      "DELETE",
      "/api/admin/users/{id}",
      "admin",
      "Delete a user, with listings and keys.",
    ),
  ];
}

const GAPS_OPEN_IN_LEGACY = [
  "GET and POST /api/messages do not enforce authentication (LEGACY_PUBLIC_ENDPOINTS=true).",
  "POST /api/profiles/sync and POST /api/profiles/limit do not enforce authentication (LEGACY_PUBLIC_ENDPOINTS=true).",
  "GET /api/profiles shows every user's email to every caller, anonymous ones included (LEGACY_PUBLIC_ENDPOINTS=true).",
];

/** Builds the capabilities document for the running mode. */
export function buildCapabilities(settings: Settings): CapabilitiesDocument {
  const mode = settings.securityMode;
  return {
    name: "Professional-Services Marketplace",
    version: API_VERSION,
    security_mode: mode,
    capabilities: capabilityTable(mode),
    categories: CATEGORIES.map((c) => ({ value: c.value, label: c.label, display_slug: c.displaySlug })),
    authentication: [
      {
        type: "api_key",
        header: "X-API-Key",
        format: "psm_ followed by 64 lowercase hexadecimal characters",
        how_obtained:
          "POST /api/keys by an authenticated caller; the value is returned once. A key carries all of its " +
          "owner's rights (interface 1.0.2): an admin's key acts as admin outside /api/admin, deleting any " +
          "listing and reading any inbox; /api/admin/* needs a JWT",
      },
      {
        type: "jwt",
        header: "Authorization",
        format: "Bearer <token> (HS256, 7 days)",
        how_obtained: "POST /api/auth/login with email and password",
      },
    ],
    known_gaps: mode === "legacy" ? [...GAPS_OPEN_IN_LEGACY] : [],
    changes_from_1_0_2: [
      "Versions: 1.1.0 added PATCH and DELETE /api/listings/{id}, the status filter, cursors and error codes; 1.2.0 the changes marked 1.2.0.",
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
    ],
    limits: {
      listing_page_default: PAGE.defaultLimit,
      listing_page_max: PAGE.maxLimit,
      min_password_length: 6,
      max_password_length: 1024,
      jwt_lifetime: "7 days",
      json_body_max_bytes: 1024 * 1024,
      upload_max_bytes: 10 * 1024 * 1024,
      slots_personal: settings.slots.personal,
      slots_business: settings.slots.business,
      slots_admin: settings.slots.admin,
    },
  };
}
