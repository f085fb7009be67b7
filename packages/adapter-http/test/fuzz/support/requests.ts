import type { Capability } from "@psm/adapter-http/testing";
import fc from "fast-check";
import type { Call } from "../../security/support/target.js";
import { illFormedString, percentEncodeAny } from "./hostile-strings.js";
import { examples, FIELDS, mutated, QUERY_KEYS, values } from "./values.js";
import type { World } from "./world.js";

/** One generated request against one capability. */
export interface FuzzRequest {
  method: string;
  path: string;
  call: Call;
}

/** A body: the valid example, a mutation of it, known and unknown fields, any JSON, junk, or nothing. */
function bodies(
  world: World,
  example: Record<string, unknown> | undefined,
): fc.Arbitrary<Pick<Call, "body" | "raw">> {
  const known = fc.dictionary(
    fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 12 })),
    values(world),
    {
      maxKeys: 8,
    },
  );
  const near = example
    ? [fc.constant({ body: example }), mutated(example, world).map((body) => ({ body }))]
    : [];
  return fc.oneof(
    ...near,
    ...near,
    fc.constant({}),
    known.map((body) => ({ body })),
    fc.jsonValue({ maxDepth: 3 }).map((body) => ({ body })),
    fc.string({ unit: "grapheme", maxLength: 200 }).map((raw) => ({ raw })),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ raw: new Uint8Array(bytes) })),
  );
}

/** The same, as a multipart upload (or not), for POST /api/parse-pdf. */
function uploads(): fc.Arbitrary<Pick<Call, "body" | "raw">> {
  const file = fc.record({
    field: fc.constantFrom("file", "document", ""),
    bytes: fc.uint8Array({ maxLength: 512 }),
    name: fc.string({ maxLength: 30 }),
    type: fc.constantFrom("application/pdf", "image/png", "text/plain", "", "application/x-msdownload"),
  });
  return fc.oneof(
    file.map(({ field, bytes, name, type }) => {
      const form = new FormData();
      form.set(field, new File([new Uint8Array(bytes)], name, { type }));
      return { raw: form };
    }),
    fc.constant({}),
    fc.string({ maxLength: 100 }).map((raw) => ({ raw })),
  );
}

/** Who the request claims to be: mostly a real user, admin or key (to get past 401), sometimes nobody or junk. */
function credentials(world: World): fc.Arbitrary<Pick<Call, "token" | "key" | "headers">> {
  const real = fc.constantFrom<Pick<Call, "token" | "key">>(
    { token: world.user.token },
    { token: world.other.token },
    { token: world.admin.token },
    { key: world.userKey },
    { key: world.adminKey },
  );
  const junk = fc.string({ maxLength: 80 }).map((text) => (text.trim() === "" ? "x" : text));
  return fc.oneof(
    { arbitrary: real, weight: 10 },
    { arbitrary: fc.constant({}), weight: 2 },
    fc.constant({ key: world.userKey, token: world.other.token }),
    junk.map((token) => ({ token })),
    junk.map((key) => ({ key })),
    junk.map((value) => ({ headers: { Authorization: value } })),
  );
}

/** Extra headers: content types, proxy and correlation headers with junk in them. */
function headers(): fc.Arbitrary<Record<string, string>> {
  return fc.record(
    {
      "Content-Type": fc.constantFrom(
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=zzz",
        "application/json; charset=utf-16",
      ),
      "X-Forwarded-For": fc.string({ maxLength: 60 }),
      "X-Request-Id": fc.string({ maxLength: 140 }),
      Accept: fc.constantFrom("*/*", "text/html", "application/xml"),
    },
    { requiredKeys: [] },
  );
}

/** A path id: mostly a real object of the kind the path names, else anything (URL-encoded). */
function pathIds(world: World, path: string): fc.Arbitrary<string> {
  const own = path.startsWith("/api/keys")
    ? [world.keyId]
    : path.includes("/users")
      ? [world.user.id, world.other.id, world.admin.id]
      : [world.listingId, world.otherListingId];
  return fc.oneof(
    { arbitrary: fc.constantFrom(...own), weight: 5 },
    fc.constantFrom(world.listingId, world.keyId, world.user.id),
    fc.uuid(),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 }).map(encodeURIComponent),
    illFormedString().map(percentEncodeAny),
  );
}

function queries(world: World, example: Record<string, string> | undefined): fc.Arbitrary<string> {
  const text = values(world).map((value) =>
    typeof value === "string" ? value : (JSON.stringify(value) ?? ""),
  );
  const pair = fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 8 })), text);
  const random = fc.array(pair, { maxLength: 5 }).map((pairs) => new URLSearchParams(pairs).toString());
  if (!example) return random;
  const near = mutated(example, world).map((query) =>
    new URLSearchParams(
      Object.entries(query).map(([k, v]) => [k, typeof v === "string" ? v : String(v)]),
    ).toString(),
  );
  return fc.oneof(fc.constant(new URLSearchParams(example).toString()), near, near, random);
}

const noBody: fc.Arbitrary<Pick<Call, "body" | "raw">> = fc.constant({});

/** Every part of a request to `cap` generated: path id, query string, credentials, headers, body. */
export function requestsFor(cap: Capability, world: World): fc.Arbitrary<FuzzRequest> {
  const example = examples(world)[`${cap.method} ${cap.path}`];
  const hasBody = cap.method !== "GET";
  return fc
    .record({
      id: pathIds(world, cap.path),
      query: queries(world, example?.query),
      auth: credentials(world),
      extra: headers(),
      body: hasBody ? (cap.path === "/api/parse-pdf" ? uploads() : bodies(world, example?.body)) : noBody,
    })
    .map(({ id, query, auth, extra, body }) => {
      const path = cap.path.replace("{id}", id) + (query ? `?${query}` : "");
      const merged = { ...extra, ...auth.headers };
      // A FormData body brings its own multipart Content-Type.
      if (body.raw instanceof FormData) delete merged["Content-Type"];
      return { method: cap.method, path, call: { ...auth, ...body, headers: merged } };
    });
}
