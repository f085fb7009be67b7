import { MarketplaceError } from "@psm/core";
import { describe, expect, test } from "vitest";
import { expectError, harness } from "./helpers.js";

describe("error mapping", () => {
  test("unknown route: 404 {error, code}", async () => {
    const h = harness();
    const res = await h.call("GET", "/api/nope");
    await expectError(res, 404, { error: "Not found", code: "not_found" });
    expect(res.headers.get("content-type")).toContain("application/json");
  });

  test("wrong method on a known path: 405 with Allow", async () => {
    const h = harness();
    const res = await h.call("PUT", "/api/listings");
    await expectError(res, 405, { error: "Method not allowed", code: "method_not_allowed" });
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST");
    const byId = await h.call("POST", "/api/listings/01900000-0000-7000-8000-000000000000");
    expect(byId.status).toBe(405);
    expect(byId.headers.get("allow")).toBe("DELETE, GET, HEAD, OPTIONS, PATCH");
    const probe = await h.call("DELETE", "/healthz");
    expect(probe.status).toBe(405);
  });

  test("malformed JSON: 400 invalid_json", async () => {
    const h = harness();
    const res = await h.call("POST", "/api/auth/signup", {
      raw: '{"email": "a@b.c",',
      headers: { "Content-Type": "application/json" },
    });
    await expectError(res, 400, { error: "Malformed JSON body", code: "invalid_json" });
  });

  test("a JSON body that is not an object: 400", async () => {
    const h = harness();
    for (const raw of ["[1,2]", '"text"', "42", "null"]) {
      const res = await h.call("POST", "/api/auth/login", {
        raw,
        headers: { "Content-Type": "application/json" },
      });
      await expectError(res, 400, { error: "Body must be a JSON object", code: "invalid_input" });
    }
  });

  test("a field error names the field", async () => {
    const h = harness();
    const res = await h.call("POST", "/api/auth/signup", {
      body: { email: "not-an-email", password: "secret1" },
    });
    await expectError(res, 400, { error: "email: must be a valid email address", code: "invalid_input" });
  });

  test("several bad fields: the wire names the first, as {error, code} and nothing more", async () => {
    const h = harness();
    const s = await h.signUp();
    const res = await h.call("POST", "/api/listings", {
      token: s.token,
      body: {
        title: "Audit",
        description: "d",
        category: "cybersecurity",
        contact_email: "nope",
        expires_at: "someday",
        images: ["https://example.com/a.png", "ftp://example.com/b.png"],
      },
    });
    // decisions.md: every error body is exactly {error, code}; the first problem speaks for all.
    await expectError(res, 400, { error: "images.1: must be http(s) URLs", code: "invalid_input" });
    const missing = await h.call("POST", "/api/auth/signup", { body: {} });
    expect(await missing.json()).toMatchObject({ error: "email: is required", code: "invalid_input" });
  });

  test("JSON over 1 MiB: 413, with Content-Length", async () => {
    const h = harness();
    const big = JSON.stringify({ email: "a@b.co", password: "x".repeat(1024 * 1024) });
    const res = await h.call("POST", "/api/auth/login", {
      raw: big,
      headers: { "Content-Type": "application/json" },
    });
    await expectError(res, 413, { error: "Payload too large", code: "payload_too_large" });
  });

  test("JSON over the limit: 413 without Content-Length (streamed)", async () => {
    const h = harness();
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await h.app.request("/api/auth/login", {
      method: "POST",
      body: stream,
      headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large" });
  });

  test("a Content-Length that understates the body does not get past the limit", async () => {
    const h = harness("strict", { maxJsonBytes: 100 });
    const raw = JSON.stringify({ email: "a@b.co", password: "y".repeat(500) });
    const req = new Request("http://localhost/api/auth/login", {
      method: "POST",
      body: raw,
      headers: { "Content-Type": "application/json", "Content-Length": "10" },
    });
    const res = await h.app.request(req);
    expect(res.status).toBe(413);
  });

  test("unexpected errors: 500 without details, logged with the request id", async () => {
    const h = harness();
    h.marketplace.listings.get = async () => {
      throw new Error("database exploded: SELECT secret FROM users");
    };
    const res = await h.call("GET", "/api/listings/01900000-0000-7000-8000-000000000000", {
      headers: { "X-Request-Id": "trace-500" },
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: "Internal server error", code: "internal_error" });
    expect(text).not.toContain("exploded");
    const logged = h.logs.find((l) => l.level === "error");
    expect(logged?.obj).toMatchObject({ reqId: "trace-500" });
  });

  test("Retry-After comes from the error", async () => {
    const h = harness();
    h.marketplace.documents.parse = async () => {
      throw new MarketplaceError("document_parser_busy", undefined, { retryAfter: 7 });
    };
    const s = await h.signUp();
    const form = new FormData();
    form.set("file", new File(["hello"], "a.txt", { type: "text/plain" }));
    const res = await h.call("POST", "/api/parse-pdf", { token: s.token, raw: form });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(await res.json()).toMatchObject({ code: "document_parser_busy" });
  });

  test("no error body carries a stack", async () => {
    const h = harness();
    for (const [method, path] of [
      ["GET", "/api/listings/bad"],
      ["POST", "/api/listings"],
      ["GET", "/api/admin/users"],
      ["PATCH", "/api/nowhere"],
    ] as const) {
      const text = await (await h.call(method, path)).text();
      expect(Object.keys(JSON.parse(text)).sort()).toEqual(["code", "error"]);
      expect(text).not.toMatch(/at .*\.ts|stack/);
    }
  });
});
