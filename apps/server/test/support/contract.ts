/** Facts of interface 1.0.2 and decisions.md that several scenarios check against. */

/**
 * Every endpoint of interface 1.0.2, plus the PATCH and DELETE of a listing
 * that decisions.md adds, as `METHOD /path` with OpenAPI-style parameters.
 */
export const ENDPOINTS = [
  "GET /api/capabilities",
  "GET /api/listings",
  "POST /api/listings",
  "GET /api/listings/{id}",
  "PATCH /api/listings/{id}",
  "DELETE /api/listings/{id}",
  "POST /api/listings/{id}/view",
  "POST /api/auth/signup",
  "POST /api/auth/login",
  "GET /api/auth/me",
  "POST /api/auth/logout",
  "POST /api/auth/reset-password",
  "POST /api/auth/update-password",
  "GET /api/keys",
  "POST /api/keys",
  "DELETE /api/keys/{id}",
  "GET /api/messages",
  "POST /api/messages",
  "GET /api/profiles",
  "POST /api/profiles/sync",
  "GET /api/profiles/admin",
  "GET /api/profiles/limit",
  "POST /api/profiles/limit",
  "PUT /api/users/update",
  "POST /api/parse-pdf",
  "GET /api/admin/posts",
  "DELETE /api/admin/posts",
  "DELETE /api/admin/posts/{id}",
  "GET /api/admin/users",
  "DELETE /api/admin/users",
  "DELETE /api/admin/users/{id}",
] as const;

/** The routes outside /api that decisions.md says the document also describes (the reset page too). */
export const SERVICE_ROUTES = [
  "GET /openapi.json",
  "GET /docs",
  "GET /healthz",
  "GET /readyz",
  "GET /reset-password",
  "POST /reset-password",
] as const;

/** The auth column of the interface, with strict mode's changes (decisions.md). */
export function expectedAuth(endpoint: string, mode: "strict" | "legacy"): string {
  const strictOnly = [
    "GET /api/messages",
    "POST /api/messages",
    "POST /api/profiles/sync",
    "POST /api/profiles/limit",
  ];
  if (strictOnly.includes(endpoint)) return mode === "strict" ? "key-or-jwt" : "public";
  if (endpoint.includes(" /api/admin/")) return "admin";
  if (endpoint === "PUT /api/users/update") return "jwt";
  const keyOrJwt = [
    "POST /api/listings",
    "PATCH /api/listings/{id}",
    "DELETE /api/listings/{id}",
    "POST /api/parse-pdf",
  ];
  if (keyOrJwt.includes(endpoint) || endpoint.includes(" /api/keys")) return "key-or-jwt";
  return "public";
}

/** The Category table of interface 1.0.2: value, label, display slug. */
export const CATEGORIES = [
  { value: "strategic-consulting", label: "Strategic Consulting", display_slug: "consulting" },
  { value: "software-development", label: "Software Development", display_slug: "development" },
  { value: "digital-marketing", label: "Digital Marketing", display_slug: "marketing" },
  { value: "ux-ui-design", label: "UX/UI Design", display_slug: "design" },
  { value: "staffing-hr", label: "Staffing & HR", display_slug: "staffing" },
  { value: "data-analytics", label: "Data & Analytics", display_slug: "data" },
  { value: "cybersecurity", label: "Cybersecurity", display_slug: "security" },
  { value: "artificial-intelligence", label: "Artificial Intelligence", display_slug: "ai" },
  { value: "legal-consulting", label: "Legal Consulting", display_slug: "legal" },
  { value: "financial-services", label: "Financial Services", display_slug: "finance" },
] as const;
