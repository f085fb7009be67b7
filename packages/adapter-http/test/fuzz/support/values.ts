import fc from "fast-check";
import { illFormedString, storableString } from "./hostile-strings.js";
import type { World } from "./world.js";

/**
 * What the fuzzer puts in bodies and queries: field names the endpoints know
 * (and prototype keys), edge values, and per endpoint a valid example that
 * mutations start from, so generated requests also get past validation.
 */

/** Field names of every body, and prototype-polluting ones. */
export const FIELDS = [
  ...["title", "description", "category", "price", "condition", "images", "structured_data"],
  ...["contact_email", "expires_at", "status", "email", "password", "display_name", "name"],
  ...["listing_id", "sender_id", "receiver_id", "content", "is_agent", "id", "account_type"],
  ...["user_id", "post_id", "token", "new_password", "is_admin", "views", "__proto__", "constructor"],
];
/** Query parameters the list endpoints read. */
export const QUERY_KEYS = ["limit", "cursor", "user_id", "type", "category", "search", "status"];

/** Values that tend to find edges: bounds, wrong types, injection-looking strings, hostile text, real ids. */
export function values(world: World): fc.Arbitrary<unknown> {
  const ids = [
    world.user.id,
    world.other.id,
    world.admin.id,
    world.listingId,
    world.otherListingId,
    world.keyId,
  ];
  return fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 20 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(...ids),
    fc.uuid(),
    fc.emailAddress(),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    fc.constantFrom("", " ", "-1", "0", "1e309", "NaN", "active", "paused", "expired", "all", "business"),
    fc.constantFrom("cybersecurity", "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd"),
    fc.constantFrom("x".repeat(201), "x".repeat(5001), "x".repeat(20_001), `${"a".repeat(250)}@example.com`),
    storableString(),
    illFormedString(),
  );
}

/** A valid body and query per endpoint, so that mutations of them reach past validation. */
export function examples(
  world: World,
): Record<string, { body?: Record<string, unknown>; query?: Record<string, string> }> {
  const { user, other } = world;
  return {
    "POST /api/listings": { body: { title: "Audit", description: "Careful", category: "cybersecurity" } },
    "PATCH /api/listings/{id}": { body: { title: "Renamed", status: "paused", price: 10 } },
    "POST /api/auth/signup": { body: { email: "fuzz@example.com", password: "secret-pw" } },
    "POST /api/auth/login": { body: { email: user.email, password: user.password } },
    "POST /api/auth/reset-password": { body: { email: user.email } },
    "POST /api/auth/update-password": { body: { token: "a".repeat(43), new_password: "secret-pw" } },
    "POST /api/keys": { body: { name: "agent" } },
    "POST /api/messages": {
      body: { listing_id: world.listingId, receiver_id: user.id, sender_id: other.id, content: "Hi" },
    },
    "GET /api/messages": { query: { user_id: user.id, type: "sent", limit: "5" } },
    "GET /api/listings": { query: { user_id: user.id, status: "all", category: "all", limit: "5" } },
    "POST /api/profiles/sync": { body: { id: user.id, email: user.email, display_name: "D" } },
    "POST /api/profiles/limit": { body: { user_id: user.id } },
    "GET /api/profiles/limit": { query: { user_id: user.id } },
    "GET /api/profiles/admin": { query: { user_id: user.id } },
    "PUT /api/users/update": { body: { display_name: "D" } },
    "DELETE /api/admin/posts": { body: { post_id: world.otherListingId } },
    "DELETE /api/admin/users": { body: { user_id: other.id } },
  };
}

/** An example with fields replaced, dropped or added at random. */
export function mutated(
  example: Record<string, unknown>,
  world: World,
): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(example);
  return fc
    .record({
      replace: fc.dictionary(fc.constantFrom(...keys), values(world), { maxKeys: 2 }),
      drop: fc.subarray(keys, { maxLength: 1 }),
      add: fc.dictionary(fc.constantFrom(...FIELDS), values(world), { maxKeys: 2 }),
    })
    .map(({ replace, drop, add }) => {
      const body: Record<string, unknown> = { ...add, ...example, ...replace };
      for (const key of drop) delete body[key];
      return body;
    });
}
