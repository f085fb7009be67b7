import type { SecurityMode, Settings } from "../../deps.js";
import { CATEGORIES } from "../../domain/category.js";
import { PAGE } from "../../domain/limits.js";

/** The version of this interface (decisions.md: 1.1.0). */
export const API_VERSION = "1.1.0";

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
    c("list_api_keys", "GET", "/api/keys", "key-or-jwt", "The caller's keys (all keys for an admin)."),
    c("create_api_key", "POST", "/api/keys", "key-or-jwt", "Create a key; its value is shown once."),
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
        how_obtained: "POST /api/keys by an authenticated caller; the value is returned once",
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
      "Version 1.1.0: adds PATCH and DELETE /api/listings/{id}, the status filter, cursors and error codes.",
      "Strict mode (default) requires an API key or JWT on GET/POST /api/messages and POST /api/profiles/sync and /limit.",
      "GET /api/auth/me accepts an API key as well as a JWT.",
      "POST /api/profiles/limit no longer increments: active_listings_count is derived from real listings.",
      "is_agent defaults to true when the caller authenticated with an API key.",
      "Error bodies gain `code`; lists gain `cursor`/`next_cursor`; JWTs gain `sub` beside `id`.",
      "GET /api/profiles shows a user's email only to that user and to admins (strict mode).",
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
