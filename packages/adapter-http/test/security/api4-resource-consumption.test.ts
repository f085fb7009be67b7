/**
 * OWASP API4:2023 Unrestricted Resource Consumption. Oversized bodies and
 * uploads, limit abuse, rate limits (per IP, per caller, per login address
 * and client IP; password-abuse.test.ts has the rest of login's), parser
 * bombs refused by a bound before the work, a cap on concurrent uploads, and
 * slow clients cut off by the server's timeouts.
 */
import { createDocumentParser } from "@psm/adapter-documents";
import type { DocumentParser } from "@psm/core";
import { buildUser, createStubDocumentParser } from "@psm/core/testing";
import { afterAll, describe, expect, test } from "vitest";
import { createRateLimitHooks, DEFAULT_RATE_LIMIT_POLICIES } from "../../src/index.js";
import { makePdf, pngHeader, uploadForm } from "./support/files.js";
import { startRealServer, trickleHeaders } from "./support/real-server.js";
import { target } from "./support/target.js";

const limited = () => target({ config: { rateLimit: createRateLimitHooks() } });

// The 600 reads and 120 writes take a second or two; an hour-long window keeps
// those two tests independent of machine speed (the quotas are the defaults).
const HOUR = 3_600_000;
const patient = () =>
  target({
    config: {
      rateLimit: createRateLimitHooks({
        policies: {
          read: { ...DEFAULT_RATE_LIMIT_POLICIES.read, windowMs: HOUR },
          write: { ...DEFAULT_RATE_LIMIT_POLICIES.write, windowMs: HOUR },
        },
      }),
    },
  });

/** Fires `n` requests and returns their statuses. */
async function burst(n: number, send: (i: number) => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await send(i)).status);
  return statuses;
}

async function expect429(res: Response, policy: string): Promise<void> {
  expect(res.status).toBe(429);
  expect(await res.json()).toEqual({ error: "Too many requests", code: "rate_limited" });
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(res.headers.get("ratelimit")).toMatch(new RegExp(`"${policy}";r=0;t=\\d+`));
  expect(res.headers.get("ratelimit-policy")).toContain(`"${policy}";q=`);
}

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

describe("rate limits", () => {
  test("login: 10 a minute per IP, then 429 with Retry-After and RateLimit headers", async () => {
    const t = limited();
    let n = 0;
    // A new address each time, so only the per-IP quota is in play.
    const attempt = (ip: string) =>
      t.request("POST", "/api/auth/login", {
        ip,
        body: { email: `x${++n}@example.com`, password: "wrong-pw" },
      });
    const first = await attempt("203.0.113.1");
    expect(first.headers.get("ratelimit-policy")).toBe('"login";q=10;w=60');
    expect(first.headers.get("ratelimit")).toMatch(/^"login";r=9;t=\d+$/);
    expect(await burst(9, () => attempt("203.0.113.1"))).toEqual(new Array(9).fill(401));
    await expect429(await attempt("203.0.113.1"), "login");
    expect((await attempt("203.0.113.2")).status).toBe(401);
  });

  test("login: 5 failures per address lock that IP out of it, the right password too; the owner elsewhere is not", async () => {
    const t = limited();
    const victim = await t.signUp("victim@example.com");
    const other = await t.signUp("bystander@example.com");
    const attempt = (ip: string, email: string, password: string) =>
      t.request("POST", "/api/auth/login", { ip, body: { email, password } });
    for (let i = 0; i < 5; i++) {
      // Case and spaces do not make a new address.
      const email = i % 2 ? "VICTIM@example.com " : victim.email;
      expect((await attempt("198.51.100.1", email, `guess-${i}`)).status).toBe(401);
    }
    await expect429(await attempt("198.51.100.1", victim.email, victim.password), "login-failures");
    // The owner from their own IP, and the guesser at another account, are not held back.
    expect((await attempt("192.0.2.77", victim.email, victim.password)).status).toBe(200);
    expect((await attempt("198.51.100.1", other.email, other.password)).status).toBe(200);
  });

  test("successful logins do not count as failures", async () => {
    const t = limited();
    const s = await t.signUp();
    const statuses = await burst(8, (i) =>
      t.request("POST", "/api/auth/login", {
        ip: `192.0.2.${i}`,
        body: { email: s.email, password: s.password },
      }),
    );
    expect(statuses).toEqual(new Array(8).fill(200));
  });

  test("signup 10 an hour and reset-password 5 an hour per IP", async () => {
    const t = limited();
    const signups = await burst(11, (i) =>
      t.request("POST", "/api/auth/signup", {
        ip: "203.0.113.9",
        body: { email: `s${i}@example.com`, password: "secret-pw" },
      }),
    );
    expect(signups.slice(0, 10)).toEqual(new Array(10).fill(201));
    await expect429(await t.request("POST", "/api/auth/signup", { ip: "203.0.113.9", body: {} }), "signup");
    const resets = await burst(5, () =>
      t.request("POST", "/api/auth/reset-password", { ip: "203.0.113.9", body: { email: "s0@example.com" } }),
    );
    expect(resets).toEqual(new Array(5).fill(200));
    await expect429(
      await t.request("POST", "/api/auth/reset-password", {
        ip: "203.0.113.9",
        body: { email: "s0@example.com" },
      }),
      "reset",
    );
  });

  test("reads: 600 per IP; X-Forwarded-For from an untrusted peer changes nothing", async () => {
    const t = patient();
    const read = (i: number) =>
      t.request("GET", "/api/capabilities", {
        ip: "203.0.113.20",
        headers: { "X-Forwarded-For": `10.9.${i >> 8}.${i & 255}` },
      });
    const statuses = await burst(600, read);
    expect(statuses.every((s) => s === 200)).toBe(true);
    await expect429(await read(600), "read");
    expect((await t.request("GET", "/api/capabilities", { ip: "203.0.113.21" })).status).toBe(200);
  });

  test("writes: 120 per user, whichever IP they come from", async () => {
    const t = patient();
    const s = await t.signUp();
    const other = await t.signUp();
    const logout = (token: string, i: number) =>
      t.request("POST", "/api/auth/logout", { token, ip: `192.0.2.${i % 50}` });
    expect((await burst(120, (i) => logout(s.token, i))).every((x) => x === 200)).toBe(true);
    await expect429(await logout(s.token, 7), "write");
    expect((await logout(other.token, 7)).status).toBe(200);
  });

  test("on a real socket: X-Forwarded-For counts only from a TRUST_PROXY peer", async () => {
    const attempts = async (trustProxy: string[]) => {
      const t = target({
        config: { rateLimit: createRateLimitHooks(), trustProxy, socketAddress: undefined },
      });
      const server = await startRealServer(t.app);
      try {
        return await burst(11, (i) =>
          fetch(`${server.url}/api/auth/login`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${i}` },
            body: JSON.stringify({ email: `r${i}@example.com`, password: "wrong-pw" }),
          }),
        );
      } finally {
        await server.close();
      }
    };
    expect((await attempts([])).at(-1)).toBe(429);
    expect(await attempts(["127.0.0.1"])).toEqual(new Array(11).fill(401));
  });

  test("parse-pdf: 20 a minute per caller", async () => {
    const t = limited();
    const s = await t.signUp();
    const upload = () =>
      t.request("POST", "/api/parse-pdf", {
        token: s.token,
        raw: uploadForm("Offer", "o.txt", "text/plain"),
      });
    expect((await burst(20, upload)).every((x) => x === 200)).toBe(true);
    await expect429(await upload(), "upload");
  });
});

describe("parser bombs, with the real document parser", () => {
  const parser = createDocumentParser();
  afterAll(() => parser.close());

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

describe("guessing credentials", () => {
  test("invalid API keys and tokens are counted by the limiter: 401s turn into 429", async () => {
    const t = target({
      config: {
        rateLimit: createRateLimitHooks({
          policies: { read: { ...DEFAULT_RATE_LIMIT_POLICIES.read, limit: 5, windowMs: HOUR } },
        }),
      },
    });
    const guess = (i: number) => `psm_${i.toString(16).padStart(64, "0")}`;
    const statuses = await burst(7, (i) => t.request("GET", "/api/listings", { key: guess(i) }));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const token = await t.request("GET", "/api/auth/me", { token: "not.a.jwt" });
    await expect429(token, "read");
  });
});
