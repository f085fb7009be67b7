/**
 * Every input is either refused clearly or stored exactly (decisions.md: "Strings"), on each
 * backend: a NUL or a lone surrogate in any string of any JSON body (structured_data's keys and
 * nested values included), in any query parameter or in any path parameter is a 400
 * `invalid_input` naming the field, and writes nothing. The app runs in-process over real SQLite
 * and PostgreSQL storage; strict-input-round-trip.test.ts holds what is stored exactly, and
 * strict-input-server-process.test.ts the socket-level cases.
 */

import { capabilityTable } from "@psm/adapter-http/testing";
import { describe, expect, test } from "vitest";
import { ILL_FORMED_PIECES } from "../fuzz/support/hostile-strings.js";
import type { Cast } from "./support/cast.js";
import { BACKENDS } from "./support/hostile-server.js";
import { BODY_CASES, fieldOf, KEY, NO_JSON_BODY, refusal, withString } from "./support/input-cases.js";
import { useStrictApp } from "./support/strict-app.js";

const CAPABILITIES = capabilityTable("strict");

/** Percent-encodings that cannot be UTF-8 text without NUL: NUL, U+D800 as bytes, stray and broken bytes. */
const BAD_ESCAPES = ["%00", "ok%00", "%ED%A0%80", "%ED%BF%BF", "%FF", "%C0%80", "%E2%82", "%", "%G1"];

/** `{id}` filled with the id of a real object of the kind the path names. */
function idFor(path: string, cast: Cast): string {
  if (path.startsWith("/api/keys")) return cast.keyId;
  if (path.startsWith("/api/webhooks")) return cast.webhookId;
  if (path.startsWith("/api/admin/users")) return cast.other.id;
  if (path.startsWith("/api/admin/posts")) return cast.otherListingId;
  return cast.listingId;
}

/** A caller that passes the route's access rule. */
function tokenFor(path: string, cast: Cast): string {
  return path.startsWith("/api/admin") ? cast.admin.token : cast.user.token;
}

for (const backend of BACKENDS) {
  describe(`strict input, in-process on ${backend} storage`, () => {
    const app = useStrictApp(backend);

    test("every route that takes a JSON body has its strings listed here", () => {
      for (const cap of CAPABILITIES) {
        if (cap.method === "GET") continue;
        const name = `${cap.method} ${cap.path}`;
        expect(
          name in BODY_CASES || NO_JSON_BODY.has(name),
          `${name}: list its strings in input-cases.ts`,
        ).toBe(true);
      }
    });

    test("a NUL or a lone surrogate in any string of any body is 400 naming the field, and writes nothing", {
      timeout: 120_000,
    }, async () => {
      const { t, cast, snapshot } = app;
      const names = new Set(CAPABILITIES.map((cap) => `${cap.method} ${cap.path}`));
      let checked = 0;
      for (const [name, kase] of Object.entries(BODY_CASES)) {
        if (!names.has(name)) continue; // a route of a later version
        for (const path of kase.strings) {
          for (const piece of ILL_FORMED_PIECES) {
            const body = withString(kase.body(cast), path, `ok${piece}ok`);
            const before = await snapshot();
            const res = await t.request(kase.method, kase.path(cast), { token: kase.token(cast), body });
            const answer = await refusal(res);
            const where = `${name} ${JSON.stringify(path.map(String))} ${JSON.stringify(piece)}`;
            expect(answer, where).toMatchObject({ status: 400, code: "invalid_input" });
            expect(answer.error, where).toMatch(new RegExp(`^${fieldOf(path).replace(".", "\\.")}: `));
            if (path.at(-1) === KEY || typeof path[1] === "string") {
              // Inside structured_data the message says where, and what.
              expect(answer.error, where).toContain("NUL character or a lone surrogate");
            }
            expect(await snapshot(), `${where} wrote`).toBe(before);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(250);
    });

    test("a NUL or broken UTF-8 in any query parameter of any route is 400 naming it", {
      timeout: 120_000,
    }, async () => {
      const { t, cast, snapshot } = app;
      const routes = [
        ...CAPABILITIES.map((cap) => ({ method: cap.method, path: cap.path })),
        // /reset-password is the pages' (adapter-web) now: strict-input-server-process covers it.
        { method: "GET", path: "/healthz" },
        { method: "GET", path: "/openapi.json" },
      ];
      for (const route of routes) {
        const path = route.path.replace("{id}", idFor(route.path, cast));
        const body = BODY_CASES[`${route.method} ${route.path}`]?.body(cast);
        for (const [key, encoded] of [
          ["search", "%00"],
          ["user_id", `${cast.user.id}%00`],
          ["cursor", "%ED%A0%80"],
          ["limit", "1%00"],
          ["token", "%FF"],
          ["anything", "a%C0%80"],
        ] as const) {
          const before = await snapshot();
          const res = await t.request(route.method, `${path}?${key}=${encoded}`, {
            token: tokenFor(route.path, cast),
            ...(body ? { body } : {}),
          });
          const where = `${route.method} ${path}?${key}=${encoded}`;
          expect(await refusal(res), where).toMatchObject({ status: 400, code: "invalid_input" });
          expect(await snapshot(), `${where} wrote`).toBe(before);
        }
      }
      // The name is in the message, and every spelling of the class is refused.
      for (const encoded of BAD_ESCAPES) {
        const res = await t.request("GET", `/api/listings?status=all&search=${encoded}`);
        const answer = await refusal(res);
        expect(answer, encoded).toMatchObject({ status: 400, code: "invalid_input" });
        expect(answer.error, encoded).toMatch(/^search: /);
      }
      const unnamed = await refusal(await t.request("GET", "/api/listings?%00=1"));
      expect(unnamed).toMatchObject({ status: 400, code: "invalid_input" });
      expect(unnamed.error).toMatch(/^query: /);
    });

    test("a NUL or broken UTF-8 in a path parameter is 400 naming it, even where a bad id is 404", async () => {
      const { t, cast, snapshot } = app;
      for (const cap of CAPABILITIES.filter((c) => c.path.includes("{id}"))) {
        const id = idFor(cap.path, cast);
        for (const encoded of ["%00", `${id}%00`, "%ED%A0%80", "%FF", `${id.slice(0, -1)}%C0%80`]) {
          const before = await snapshot();
          const path = cap.path.replace("{id}", encoded);
          const res = await t.request(cap.method, path, { token: tokenFor(cap.path, cast) });
          const answer = await refusal(res);
          expect(answer, `${cap.method} ${path}`).toMatchObject({ status: 400, code: "invalid_input" });
          expect(answer.error, `${cap.method} ${path}`).toMatch(/^id: /);
          expect(await snapshot(), `${cap.method} ${path} wrote`).toBe(before);
        }
      }
      // Storable but not an id: the route's own answer, unchanged.
      expect((await t.request("GET", "/api/listings/%C3%A9")).status).toBe(404);
      expect((await t.request("DELETE", "/api/listings/%C3%A9", { token: cast.user.token })).status).toBe(
        400,
      );
    });

    test("NUL and lone surrogates never reach a search: 400 on both ways of asking", async () => {
      const { t, cast } = app;
      for (const search of ["%00", "a%00b"]) {
        expect((await t.request("GET", `/api/listings?search=${search}`)).status).toBe(400);
      }
      expect(
        (await t.request("GET", "/api/admin/posts?cursor=%00", { token: cast.admin.token })).status,
      ).toBe(400);
      // An embedder calling core directly meets the same rule.
      for (const search of ["\0", "\ud800"]) {
        await expect(t.marketplace.listings.search({ kind: "anonymous" }, { search })).rejects.toMatchObject({
          code: "invalid_input",
        });
      }
      const found = await t.request("GET", `/api/listings?search=${encodeURIComponent("AUDIT")}`);
      expect(found.status).toBe(200);
    });
  });
}
