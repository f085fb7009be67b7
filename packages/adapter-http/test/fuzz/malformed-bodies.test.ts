/**
 * Every route that takes a body, JSON API and HTML form alike, fed malformed bodies under every
 * content type: broken JSON and multipart, bytes that are not UTF-8, broken escapes, nesting a
 * million deep. Property: no answer is a 5xx, and every /api error is exactly {error, code}.
 * Routes are read from the app itself, so a new route is fuzzed without being listed here.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { percentEncodeAny } from "./support/hostile-strings.js";
import { createWorld } from "./support/world.js";

/** Fixed, so a failure reproduces; change it only on purpose. */
const SEED = 20_260_303;

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-16",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=b",
  'multipart/form-data; boundary="b"',
  "multipart/form-data; boundary=",
  "text/plain",
  "application/octet-stream",
] as const;

/** Bodies that no parser should fail on with anything but a 4xx. */
function malformedBodies(): fc.Arbitrary<string | Uint8Array<ArrayBuffer>> {
  const multipartPiece = fc.oneof(
    fc.constantFrom(
      "--b\r\n",
      "--b--\r\n",
      "\r\n\r\n",
      'Content-Disposition: form-data; name="file"; filename="a"\r\n',
    ),
    fc.constantFrom(
      'Content-Disposition: form-data; name="token"\r\n',
      "Content-Type: text/plain\r\n",
      "--b",
    ),
    fc.string({ maxLength: 20 }),
  );
  return fc.oneof(
    fc.array(multipartPiece, { maxLength: 10 }).map((parts) => parts.join("")),
    fc.string({ unit: "binary", maxLength: 80 }),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => new Uint8Array(bytes)),
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value).slice(0, -1)),
    fc.string({ maxLength: 20 }).map((s) => `token=${percentEncodeAny(`${s}\ud800`)}&new_password=${s}%`),
    fc.constantFrom(
      "[".repeat(1024 * 1024),
      `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
      `{"structured_data":${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}}`,
      '{"title":"\\ud800","description":"\\u0000"}',
      '{"__proto__":{"is_admin":true},"constructor":{"prototype":{"x":1}}}',
      "%%%%",
      "",
    ),
  );
}

describe("fuzz: malformed bodies on every route that takes one", () => {
  test("no 5xx, and /api errors are {error, code}", { timeout: 120_000 }, async () => {
    const world = await createWorld("strict");
    const routes = world.t.app.routes
      .filter((route) => ["POST", "PUT", "PATCH", "DELETE"].includes(route.method))
      .map((route) => ({ method: route.method, path: route.path }))
      .filter(
        (route, i, all) => all.findIndex((r) => r.method === route.method && r.path === route.path) === i,
      );
    expect(routes.length).toBeGreaterThan(15);
    const route = fc.constantFrom(...routes);
    await fc.assert(
      fc.asyncProperty(route, fc.constantFrom(...CONTENT_TYPES), malformedBodies(), async (r, type, raw) => {
        const path = r.path.replace(
          ":id",
          r.path.startsWith("/api/keys") ? world.keyId : world.otherListingId,
        );
        const token = path.startsWith("/api/admin") ? world.admin.token : world.user.token;
        const res = await world.t.request(r.method, path, { token, raw, headers: { "Content-Type": type } });
        const text = await res.text();
        const where = `${r.method} ${path} [${type}] ${String(raw).slice(0, 40)} -> ${res.status} ${text.slice(0, 120)}`;
        expect(res.status, where).toBeLessThan(500);
        if (path.startsWith("/api") && res.status >= 400) {
          expect(Object.keys(JSON.parse(text)).sort(), where).toEqual(["code", "error"]);
        }
      }),
      { seed: SEED, numRuns: 600, endOnFailure: true },
    );
    expect(world.t.errors).toEqual([]);
  });
});
