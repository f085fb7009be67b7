/**
 * What the strict-input suites walk: every JSON body the API reads with the
 * path of each string in it, and the checks on a refusal.
 */
import type { Cast } from "./cast.js";

/** Where a string sits in a body: keys and array indexes; `KEY` as the last step means the key itself. */
export type StringPath = readonly (string | number)[];
export const KEY = Symbol("key");

/** One JSON body the API reads. */
export interface BodyCase {
  method: string;
  path(cast: Cast): string;
  token(cast: Cast): string;
  /** A body that passes validation. */
  body(cast: Cast): Record<string, unknown>;
  /** Every string in it (and a key of structured_data), as paths. */
  strings: readonly (StringPath | readonly [...StringPath, typeof KEY])[];
}

const listing = () => ({
  title: "Audit",
  description: "A careful audit",
  category: "cybersecurity",
  price: "1250.50",
  condition: "new",
  images: ["https://img.example.com/a.png"],
  structured_data: { notes: "n", nested: { list: ["deep"] } },
  contact_email: "sales@example.com",
  expires_at: "2030-01-01T00:00:00.000Z",
});
const listingStrings = [
  ["title"],
  ["description"],
  ["category"],
  ["price"],
  ["condition"],
  ["images", 0],
  ["structured_data", "notes"],
  ["structured_data", "nested", "list", 0],
  ["structured_data", "nested", KEY],
  ["contact_email"],
  ["expires_at"],
] as const;

/** A case as declared: its sender (null: nobody, as on the sign-in routes), its path's `{id}`, its body. */
interface CaseSpec {
  as: "user" | "other" | "admin" | null;
  id?: (cast: Cast) => string;
  body(cast: Cast): Record<string, unknown>;
  strings: BodyCase["strings"];
}

/** The cases, their method and path read from the `METHOD /path` key, so that the two cannot disagree. */
function bodyCases(specs: Record<string, CaseSpec>): Record<string, BodyCase> {
  const cases = Object.entries(specs).map(([route, spec]): [string, BodyCase] => {
    const [method = "", template = ""] = route.split(" ");
    return [
      route,
      {
        method,
        path: (c) => template.replace("{id}", spec.id?.(c) ?? ""),
        token: (c) => (spec.as === null ? "" : c[spec.as].token),
        body: spec.body,
        strings: spec.strings,
      },
    ];
  });
  return Object.fromEntries(cases);
}

/** Every JSON body of the API (strict mode), keyed `METHOD /path` as the capability table writes them. */
export const BODY_CASES = bodyCases({
  "POST /api/listings": { as: "user", body: listing, strings: listingStrings },
  "PATCH /api/listings/{id}": {
    as: "user",
    id: (c) => c.listingId,
    body: () => ({ ...listing(), status: "active" }),
    strings: [...listingStrings, ["status"]],
  },
  "POST /api/auth/signup": {
    as: null,
    body: () => ({ email: "new@example.com", password: "secret-pw", display_name: "New" }),
    strings: [["email"], ["password"], ["display_name"]],
  },
  "POST /api/auth/login": {
    as: null,
    body: (c) => ({ email: c.user.email, password: c.user.password }),
    strings: [["email"], ["password"]],
  },
  "POST /api/auth/reset-password": { as: null, body: (c) => ({ email: c.user.email }), strings: [["email"]] },
  "POST /api/auth/update-password": {
    as: null,
    body: () => ({ token: "a".repeat(43), new_password: "secret-pw" }),
    strings: [["token"], ["new_password"]],
  },
  "POST /api/auth/verify-email": { as: null, body: () => ({ token: "a".repeat(43) }), strings: [["token"]] },
  "POST /api/keys": {
    as: "user",
    body: () => ({ name: "agent", scopes: ["messages:read"], expires_at: "2099-01-01T00:00:00.000Z" }),
    strings: [["name"], ["scopes", 0], ["expires_at"]],
  },
  "POST /api/keys/{id}/rotate": {
    as: "user",
    id: (c) => c.keyId,
    body: () => ({ grace_seconds: 60 }),
    strings: [],
  },
  "POST /api/webhooks": {
    as: "user",
    body: () => ({ url: "https://hooks.example.com/in", types: ["listing.created"], description: "crm" }),
    strings: [["url"], ["types", 0], ["description"]],
  },
  "PATCH /api/webhooks/{id}": {
    as: "user",
    id: (c) => c.webhookId,
    body: () => ({
      url: "https://hooks.example.com/new",
      types: ["listing.deleted"],
      description: "d",
      enabled: true,
    }),
    strings: [["url"], ["types", 0], ["description"]],
  },
  "POST /api/webhooks/{id}/replay": {
    as: "user",
    id: (c) => c.webhookId,
    body: () => ({ since: "2020-01-01T00:00:00.000Z" }),
    strings: [["since"]],
  },
  "POST /api/saved-searches": {
    as: "user",
    body: () => ({ q: "audit", search: "shop", category: "cybersecurity", min_price: "10", name: "Audits" }),
    strings: [["q"], ["search"], ["category"], ["min_price"], ["name"]],
  },
  "PATCH /api/notifications": {
    as: "user",
    body: () => ({ message_mail: "off", saved_search_mail: "daily" }),
    strings: [["message_mail"], ["saved_search_mail"]],
  },
  "POST /api/messages": {
    as: "other",
    body: (c) => ({
      listing_id: c.listingId,
      sender_id: c.other.id,
      receiver_id: c.user.id,
      content: "Interested",
    }),
    strings: [["listing_id"], ["sender_id"], ["receiver_id"], ["content"]],
  },
  "POST /api/profiles/sync": {
    as: "user",
    body: (c) => ({ id: c.user.id, email: c.user.email, display_name: "D", account_type: "personal" }),
    strings: [["id"], ["email"], ["display_name"], ["account_type"]],
  },
  "POST /api/profiles/limit": { as: "user", body: (c) => ({ user_id: c.user.id }), strings: [["user_id"]] },
  "PUT /api/users/update": {
    as: "user",
    body: () => ({ display_name: "Renamed" }),
    strings: [["display_name"]],
  },
  "DELETE /api/admin/posts": {
    as: "admin",
    body: (c) => ({ post_id: c.otherListingId }),
    strings: [["post_id"]],
  },
  "DELETE /api/admin/users": { as: "admin", body: (c) => ({ user_id: c.other.id }), strings: [["user_id"]] },
});

/** Routes that read no JSON body (the upload is multipart; the rest take none). */
export const NO_JSON_BODY = new Set([
  "DELETE /api/listings/{id}",
  "POST /api/listings/{id}/view",
  "POST /api/auth/logout",
  "DELETE /api/keys/{id}",
  "DELETE /api/webhooks/{id}",
  "DELETE /api/saved-searches/{id}",
  "POST /api/webhooks/{id}/rotate-secret",
  "POST /api/webhooks/{id}/test",
  "POST /api/parse-pdf",
  "DELETE /api/admin/posts/{id}",
  "DELETE /api/admin/users/{id}",
]);

/** A copy of `body` with the string at `path` (or the key it ends at) replaced by `value`. */
export function withString(
  body: Record<string, unknown>,
  path: StringPath | readonly [...StringPath, typeof KEY],
  value: string,
): Record<string, unknown> {
  const copy = structuredClone(body);
  let parent: Record<string | number, unknown> = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const next = path[i + 1];
    const step = path[i] as string | number;
    if (next === KEY) {
      // Rename the key `step` of `parent` to `value`, keeping its content.
      const content = parent[step];
      delete parent[step];
      parent[value] = content;
      return copy;
    }
    parent = parent[step] as Record<string | number, unknown>;
  }
  parent[path.at(-1) as string | number] = value;
  return copy;
}

/** The name a refusal must begin with: the top-level field (and index) the path starts at. */
export function fieldOf(path: StringPath | readonly [...StringPath, typeof KEY]): string {
  const [first, second] = path;
  return typeof second === "number" ? `${String(first)}.${second}` : String(first);
}

/** A refusal as the checks compare it: status, code and message. */
export async function refusal(res: Response): Promise<{ status: number; code: string; error: string }> {
  const body = (await res.json()) as { code: string; error: string };
  return { status: res.status, code: body.code, error: body.error };
}

/** A JSON object nested `levels` deep (the object itself is level 1), built without recursion. */
export function nested(levels: number): Record<string, unknown> {
  let inner: unknown = "leaf";
  for (let i = 1; i < levels; i++) inner = { k: inner };
  return { k: inner };
}

/** What JSON makes of a value (-0 is 0): the form every answer has. */
export function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
