/**
 * OWASP API4:2023 Unrestricted Resource Consumption: oversized bodies and uploads, limit abuse,
 * parser bombs refused by a bound before the work, a cap on concurrent uploads, and slow clients
 * cut off by the server's timeouts. api4-rate-limits.test.ts has the rate limits.
 */
import type { DocumentParser } from "@psm/core";
import { buildUser, createStubDocumentParser } from "@psm/core/testing";
import { describe, expect, test } from "vitest";
import { useDocumentParser } from "./support/document-parser.js";
import { makePdf, pngHeader, uploadForm } from "./support/files.js";
import { startRealServer, trickleHeaders } from "./support/real-server.js";
import { target } from "./support/target.js";

describe("sizes", () => {
  test("a JSON body over 1 MiB is 413, whatever Content-Length claims", async () => {
    const t = target();
    const s = await t.signUp();
    const big = JSON.stringify({
      title: "x".repeat(1024 * 1024),
      description: "d",
      category: "cybersecurity",
    });
    const res = await t.request("POST", "/api/listings", { token: s.token, raw: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large" });
    const lying = await t.request("POST", "/api/listings", {
      token: s.token,
      raw: big,
      headers: { "Content-Length": "10" },
    });
    expect(lying.status).toBe(413);
  });

  test("an upload over 10 MiB is 413 and never reaches the parser", async () => {
    const documents = createStubDocumentParser();
    const t = target({ documents });
    const s = await t.signUp();
    const file = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61);
    const res = await t.request("POST", "/api/parse-pdf", {
      token: s.token,
      raw: uploadForm(file, "a.txt", "text/plain"),
    });
    expect(res.status).toBe(413);
    expect(documents.inputs).toHaveLength(0);
  });

  test("limit is clamped to 100, and a limit below 1 or not an integer is 400", async () => {
    const t = target();
    for (let i = 0; i < 105; i++) await t.deps.repos.users.insert(buildUser());
    const admin = await t.admin();
    for (const path of ["/api/profiles", "/api/admin/users"]) {
      const page = await t.json<{ count: number; next_cursor: string | null }>(
        await t.request("GET", `${path}?limit=1000000`, { token: admin.token }),
      );
      expect(page.count, path).toBe(100);
      expect(page.next_cursor, path).not.toBeNull();
    }
    for (const path of ["/api/listings", "/api/messages", "/api/keys", "/api/admin/posts"]) {
      const res = await t.request("GET", `${path}?limit=1000000`, { token: admin.token });
      expect(res.status, path).toBe(200);
    }
    for (const bad of ["-1", "0", "1.5", "abc", "1e3"]) {
      const res = await t.request("GET", `/api/listings?limit=${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });
});

describe("parser bombs, with the real document parser", () => {
  const parser = useDocumentParser();

  test("a PDF with a 6001-page tree is refused by the page bound before any page is read", async () => {
    const t = target({ documents: parser });
    const s = await t.signUp();
    // 6001 real (blank) pages in ~0.2 MB (the bound is 5000): reading them all is the work the bound prevents.
    const bomb = makePdf({ pages: [["Tiny document, huge tree"]], blankPages: 6_000 });
    const res = await t.request("POST", "/api/parse-pdf", {
      token: s.token,
      raw: uploadForm(bomb, "b.pdf", "application/pdf"),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: expect.stringMatching(/declares 6001 pages.*not read/),
      code: "document_unreadable",
    });
  });

  test("a PNG header claiming 100000 x 100000 pixels is refused by the pixel bound, never decoded", async () => {
    const t = target({ documents: parser });
    const s = await t.signUp();
    const res = await t.request("POST", "/api/parse-pdf", {
      token: s.token,
      raw: uploadForm(pngHeader(100_000, 100_000), "huge.png", "image/png"),
    });
    // The file has no pixel data at all: any decode would fail differently.
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: expect.stringMatching(/100000×100000/),
      code: "payload_too_large",
    });
  });
});

describe("concurrent uploads", () => {
  test("4 parses in flight per process (each account holds 2 at most); the 5th is 503 with Retry-After at once", async () => {
    const gates: (() => void)[] = [];
    const stub = createStubDocumentParser();
    const slow: DocumentParser = {
      parse: async (input) => {
        await new Promise<void>((open) => gates.push(open));
        return stub.parse(input);
      },
    };
    const t = target({ documents: slow });
    const accounts = [await t.signUp(), await t.signUp(), await t.signUp()];
    const upload = (token: string) =>
      t.request("POST", "/api/parse-pdf", { token, raw: uploadForm("Offer", "o.txt", "text/plain") });
    const [a, b, c] = accounts.map((s) => s.token) as [string, string, string];
    const held = [upload(a), upload(a), upload(b), upload(b)];
    while (gates.length < 4) await new Promise((r) => setImmediate(r));
    const fifth = await upload(c);
    expect(fifth.status).toBe(503);
    expect(fifth.headers.get("retry-after")).toBe("5");
    expect(await fifth.json()).toMatchObject({ code: "service_unavailable" });
    for (const open of gates.splice(0)) open();
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });
});

describe("slow clients, on a real server", () => {
  test("headers sent byte by byte are cut off by headersTimeout", async () => {
    const server = await startRealServer(target().app, {
      headersTimeout: 500,
      requestTimeout: 1_000,
      keepAliveTimeout: 500,
      connectionsCheckingInterval: 100,
    });
    try {
      // 400 bytes at one per 50 ms would take 20 s; the server must hang up long before.
      const result = await trickleHeaders(server.port, 50, 400);
      expect(result.closedByServer).toBe(true);
      expect(result.bytesSent).toBeLessThan(400);
      expect(result.reply).toMatch(/^HTTP\/1\.1 408|^$/);
    } finally {
      await server.close();
    }
  });
});
