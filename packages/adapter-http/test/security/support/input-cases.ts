/**
 * What the strict-input suites walk: every JSON body the API reads with the
 * path of each string in it, the accounts the cases act as, and the checks on
 * a refusal.
 */
import type { Session, Target } from "./target.js";

/** The accounts and objects the cases act on. */
export interface Cast {
  user: Session;
  other: Session;
  admin: Session;
  keyId: string;
  listingId: string;
  otherListingId: string;
}

/** Signs up two users and an admin, with a key and a listing each for the users. */
export async function castOf(t: Target): Promise<Cast> {
  const user = await t.signUp();
  const other = await t.signUp();
  const admin = await t.admin();
  const { id: keyId } = await t.apiKey(user);
  const listingId = (await t.listing(user)).id;
  const otherListingId = (await t.listing(other)).id;
  return { user, other, admin, keyId, listingId, otherListingId };
}

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

/** Every JSON body of the API (strict mode), keyed `METHOD /path` as the capability table writes them. */
export const BODY_CASES: Record<string, BodyCase> = {
  "POST /api/listings": {
    method: "POST",
    path: () => "/api/listings",
    token: (c) => c.user.token,
    body: listing,
    strings: listingStrings,
  },
  "PATCH /api/listings/{id}": {
    method: "PATCH",
    path: (c) => `/api/listings/${c.listingId}`,
    token: (c) => c.user.token,
    body: () => ({ ...listing(), status: "active" }),
    strings: [...listingStrings, ["status"]],
  },
  "POST /api/auth/signup": {
    method: "POST",
    path: () => "/api/auth/signup",
    token: () => "",
    body: () => ({ email: "new@example.com", password: "secret-pw", display_name: "New" }),
    strings: [["email"], ["password"], ["display_name"]],
  },
  "POST /api/auth/login": {
    method: "POST",
    path: () => "/api/auth/login",
    token: () => "",
    body: (c) => ({ email: c.user.email, password: c.user.password }),
    strings: [["email"], ["password"]],
  },
  "POST /api/auth/reset-password": {
    method: "POST",
    path: () => "/api/auth/reset-password",
    token: () => "",
    body: (c) => ({ email: c.user.email }),
    strings: [["email"]],
  },
  "POST /api/auth/update-password": {
    method: "POST",
    path: () => "/api/auth/update-password",
    token: () => "",
    body: () => ({ token: "a".repeat(43), new_password: "secret-pw" }),
    strings: [["token"], ["new_password"]],
  },
  "POST /api/auth/verify-email": {
    method: "POST",
    path: () => "/api/auth/verify-email",
    token: () => "",
    body: () => ({ token: "a".repeat(43) }),
    strings: [["token"]],
  },
  "POST /api/keys": {
    method: "POST",
    path: () => "/api/keys",
    token: (c) => c.user.token,
    body: () => ({ name: "agent" }),
    strings: [["name"]],
  },
  "POST /api/messages": {
    method: "POST",
    path: () => "/api/messages",
    token: (c) => c.other.token,
    body: (c) => ({
      listing_id: c.listingId,
      sender_id: c.other.id,
      receiver_id: c.user.id,
      content: "Interested",
    }),
    strings: [["listing_id"], ["sender_id"], ["receiver_id"], ["content"]],
  },
  "POST /api/profiles/sync": {
    method: "POST",
    path: () => "/api/profiles/sync",
    token: (c) => c.user.token,
    body: (c) => ({ id: c.user.id, email: c.user.email, display_name: "D", account_type: "personal" }),
    strings: [["id"], ["email"], ["display_name"], ["account_type"]],
  },
  "POST /api/profiles/limit": {
    method: "POST",
    path: () => "/api/profiles/limit",
    token: (c) => c.user.token,
    body: (c) => ({ user_id: c.user.id }),
    strings: [["user_id"]],
  },
  "PUT /api/users/update": {
    method: "PUT",
    path: () => "/api/users/update",
    token: (c) => c.user.token,
    body: () => ({ display_name: "Renamed" }),
    strings: [["display_name"]],
  },
  "DELETE /api/admin/posts": {
    method: "DELETE",
    path: () => "/api/admin/posts",
    token: (c) => c.admin.token,
    body: (c) => ({ post_id: c.otherListingId }),
    strings: [["post_id"]],
  },
  "DELETE /api/admin/users": {
    method: "DELETE",
    path: () => "/api/admin/users",
    token: (c) => c.admin.token,
    body: (c) => ({ user_id: c.other.id }),
    strings: [["user_id"]],
  },
};

/** Routes that read no JSON body (the upload is multipart; the rest take none). */
export const NO_JSON_BODY = new Set([
  "DELETE /api/listings/{id}",
  "POST /api/listings/{id}/view",
  "POST /api/auth/logout",
  "DELETE /api/keys/{id}",
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
