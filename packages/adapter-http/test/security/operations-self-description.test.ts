/**
 * What the service says of itself and what it costs to read: /docs and the OpenAPI document
 * compressed for clients that accept it, the admin-key warning, the capabilities document's
 * version 1.3.0 and legacy mode's email gap.
 */
import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { API_VERSION } from "@psm/adapter-http";
import { describe, expect, test } from "vitest";
import { negotiateCoding } from "../../src/precompressed.js";
import { startRealServer } from "./support/real-server.js";
import { target } from "./support/target.js";

/** Fetches `path` over a real socket and counts the bytes of the body as sent (not decoded). */
function transferred(
  url: string,
  path: string,
  acceptEncoding?: string,
): Promise<{ bytes: Buffer; encoding: string | undefined; vary: string | undefined }> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding };
    httpRequest(`${url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          bytes: Buffer.concat(chunks),
          encoding: res.headers["content-encoding"],
          vary: res.headers.vary,
        }),
      );
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

describe("/docs assets are compressed for clients that accept it", () => {
  test("the bundle and the OpenAPI document: brotli or gzip, Vary: Accept-Encoding, the same bytes decoded", async () => {
    const t = target();
    const server = await startRealServer(t.app);
    try {
      for (const path of ["/docs/scalar.js", "/openapi.json"]) {
        const plain = await transferred(server.url, path);
        expect(plain.encoding, path).toBeUndefined();
        expect(plain.vary, path).toContain("Accept-Encoding");
        const br = await transferred(server.url, path, "gzip, deflate, br");
        expect(br.encoding, path).toBe("br");
        expect(brotliDecompressSync(br.bytes).equals(plain.bytes), path).toBe(true);
        const gzip = await transferred(server.url, path, "gzip");
        expect(gzip.encoding, path).toBe("gzip");
        expect(gunzipSync(gzip.bytes).equals(plain.bytes), path).toBe(true);
        // 4.35 MB and 64 KB uncompressed; about a quarter and a tenth of that compressed.
        expect(br.bytes.length, path).toBeLessThan(plain.bytes.length * 0.3);
        expect(gzip.bytes.length, path).toBeLessThan(plain.bytes.length * 0.3);
      }
    } finally {
      await server.close();
    }
  });

  test("Accept-Encoding is honoured: q-values, refusals, the wildcard", () => {
    const chosen: [header: string | undefined, coding: string][] = [
      [undefined, "identity"],
      ["", "identity"],
      ["identity", "identity"],
      ["deflate", "identity"],
      ["gzip", "gzip"],
      ["x-gzip", "gzip"],
      ["gzip, br", "br"],
      ["BR;q=0.5, gzip;q=0.8", "gzip"],
      ["br;q=0, gzip;q=0", "identity"],
      ["*", "br"],
      ["*;q=0.1, br;q=0", "gzip"],
      ["gzip;q=nonsense", "identity"],
    ];
    for (const [header, coding] of chosen) expect(negotiateCoding(header), String(header)).toBe(coding);
  });
});

describe("what the service says of itself", () => {
  test("an admin creating an API key is warned that it acts as admin; others are not; OpenAPI documents it", async () => {
    const t = target();
    const admin = await t.admin();
    const user = await t.signUp();
    const asAdmin = await t.json<{ warning?: string }>(
      await t.request("POST", "/api/keys", { token: admin.token, body: {} }),
    );
    expect(asAdmin.warning).toMatch(/admin rights outside \/api\/admin/);
    const asUser = await t.json<Record<string, unknown>>(
      await t.request("POST", "/api/keys", { token: user.token, body: {} }),
    );
    expect(asUser).not.toHaveProperty("warning");

    const doc = await t.json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>(await t.request("GET", "/openapi.json"));
    const created = JSON.stringify(doc.paths["/api/keys"]?.post?.responses["200"]);
    expect(created).toContain('"warning"');
  });

  test("the capabilities document: version 1.3.0, the admin-key rule, legacy mode's email gap", async () => {
    for (const mode of ["strict", "legacy"] as const) {
      const t = target({ mode });
      const caps = await t.json<{
        version: string;
        known_gaps: string[];
        changes_from_1_0_2: string[];
        authentication: { header: string; how_obtained: string }[];
      }>(await t.request("GET", "/api/capabilities"));
      expect(caps.version).toBe("1.3.0");
      expect(API_VERSION).toBe("1.3.0");
      const apiKey = caps.authentication.find((entry) => entry.header === "X-API-Key");
      expect(apiKey?.how_obtained).toContain("admin's key acts as admin outside /api/admin");
      expect(caps.changes_from_1_0_2.some((line) => line.includes("Cache-Control: no-store"))).toBe(true);
      // Every part of 1.3.0 is named, none still "landing".
      const of130 = caps.changes_from_1_0_2.filter((line) => line.startsWith("1.3.0: ")).join("\n");
      for (const part of [
        "price_unit",
        "`q`",
        "scopes",
        "OAuth 2.1",
        "/api/events",
        "/api/webhooks",
        "/api/notifications",
        "/api/saved-searches",
      ]) {
        expect(of130).toContain(part);
      }
      expect(caps.changes_from_1_0_2.join("\n")).not.toContain("landing");
      const emailGap = caps.known_gaps.some(
        (gap) => gap.includes("GET /api/profiles") && gap.includes("email"),
      );
      expect(emailGap, mode).toBe(mode === "legacy");
    }
    const openapi = await target().request("GET", "/openapi.json");
    expect(((await openapi.json()) as { info: { version: string } }).info.version).toBe("1.3.0");
  });

  test("legacy mode's email gap is real: an anonymous caller sees every email", async () => {
    const t = target({ mode: "legacy" });
    const user = await t.signUp();
    const res = await t.request("GET", "/api/profiles");
    const body = await t.json<{ profiles: { email?: string }[] }>(res);
    expect(body.profiles.map((profile) => profile.email)).toContain(user.email);
  });
});
