import { describe, expect, test } from "vitest";
import { WEB_PRIVATE_PATHS } from "../src/index.js";
import { webHarness } from "./harness.js";

// The mailed-link pages hold a one-time token in their URL: the surface declares them private, so
// the host marks every answer no-store before any route runs, the ones no page renders included.

describe("the pages behind mailed links are never stored, whatever answers them", () => {
  test("a page, a refused token, a bad query, and a method no page serves", async () => {
    const h = webHarness();
    expect(WEB_PRIVATE_PATHS.map((p) => p.path)).toEqual([
      "/reset-password",
      "/verify-email",
      "/unsubscribe",
    ]);
    for (const { path } of WEB_PRIVATE_PATHS) {
      for (const [method, url] of [
        ["GET", `${path}?token=not-a-token`],
        ["GET", `${path}?token=%ED%A0%80`],
        ["GET", path],
        ["PUT", `${path}?token=not-a-token`],
        ["DELETE", `${path}/below`],
      ] as const) {
        const res = await h.app.request(url, { method, headers: { Accept: "application/json" } });
        expect(res.headers.get("cache-control"), `${method} ${url} (${res.status})`).toBe("no-store");
      }
    }
  });
});
