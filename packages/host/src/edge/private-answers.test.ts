import type { SecurityMode } from "@psm/core";
import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import { type PrivatePath, privateAnswers } from "./private-answers.js";

const PATHS: PrivatePath[] = [
  { path: "/api/keys", privacy: "always" },
  { path: "/api/keys/{id}", privacy: "always" },
  { path: "/api/profiles", privacy: "identified" },
  { path: "/reset-password", privacy: "always" },
];

/** The Cache-Control of an answer the route sets to `public`, as a handler of its own would. */
async function cacheControl(mode: SecurityMode, path: string, headers: Record<string, string> = {}) {
  const app = new Hono();
  app.use(privateAnswers(mode, PATHS));
  app.all("*", (c) =>
    c.req.query("fail") ? c.json({}, 500) : c.json({}, 200, { "Cache-Control": "public" }),
  );
  const res = await app.request(path, { headers });
  return res.headers.get("cache-control");
}

describe("privateAnswers: no-store decided from the request, for the paths the surfaces declare", () => {
  test("a declared path, a parameter segment and the paths below them are never stored", async () => {
    for (const path of [
      "/api/keys",
      "/api/keys/",
      "/api/keys/abc",
      "/api/keys/abc/rotate",
      "/reset-password",
    ]) {
      expect(await cacheControl("strict", path), path).toBe("no-store");
    }
  });

  test("a path that only shares a prefix, or an undeclared one, keeps the route's policy", async () => {
    for (const path of ["/api/keysets", "/api/listings", "/reset-passwords", "/api", "/"]) {
      expect(await cacheControl("strict", path), path).toBe("public");
    }
  });

  test("the template is a path, not an expression: its dots and brackets match only themselves", async () => {
    const app = new Hono();
    app.use(privateAnswers("strict", [{ path: "/a.b/(x)", privacy: "always" }]));
    app.get("*", (c) => c.text("ok"));
    expect((await app.request("/a.b/(x)")).headers.get("cache-control")).toBe("no-store");
    expect((await app.request("/aXb/(x)")).headers.get("cache-control")).toBeNull();
  });

  test("identified: private when a credential is presented, or always in legacy mode", async () => {
    expect(await cacheControl("strict", "/api/profiles")).toBe("public");
    expect(await cacheControl("strict", "/api/profiles", { "X-API-Key": "psm_x" })).toBe("no-store");
    expect(await cacheControl("strict", "/api/profiles", { Authorization: "Bearer x" })).toBe("no-store");
    expect(await cacheControl("legacy", "/api/profiles")).toBe("no-store");
  });

  test("error answers are never stored either", async () => {
    expect(await cacheControl("strict", "/api/keys?fail=1")).toBe("no-store");
  });
});
