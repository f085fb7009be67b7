/**
 * OWASP API4:2023 Unrestricted Resource Consumption: rate limits (per IP, per caller, per login
 * address and client IP; password-abuse.test.ts has the rest of login's), guessed credentials
 * counted among them. api4-resource-bounds.test.ts has sizes, parser bombs, concurrent uploads
 * and slow clients.
 */
import { describe, expect, test } from "vitest";
import { createRateLimitHooks, DEFAULT_RATE_LIMIT_POLICIES } from "../../src/index.js";
import { expectError } from "../helpers.js";
import { uploadForm } from "./support/files.js";
import { startRealServer } from "./support/real-server.js";
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
  await expectError(res, 429, { error: "Too many requests", code: "rate_limited" });
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(res.headers.get("ratelimit")).toMatch(new RegExp(`"${policy}";r=0;t=\\d+`));
  expect(res.headers.get("ratelimit-policy")).toContain(`"${policy}";q=`);
}

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

  test("signup 10 accounts an hour and reset-password 5 an hour per IP", async () => {
    const t = limited();
    const signup = (i: number, password = "secret-pw") =>
      t.request("POST", "/api/auth/signup", {
        ip: "203.0.113.9",
        body: { email: `s${i}@example.com`, password },
      });
    // One office behind one IP: typos and a taken address are not accounts, and cost nothing.
    expect(await burst(12, () => signup(0, "short"))).toEqual(new Array(12).fill(400));
    expect(await burst(9, (i) => signup(i))).toEqual(new Array(9).fill(201));
    expect(await burst(3, () => signup(0))).toEqual([400, 400, 400]);
    expect((await signup(9)).status).toBe(201);
    // The eleventh account is refused, even as a typo: the answer says when the next is allowed.
    for (const body of [{ email: "s10@example.com", password: "secret-pw" }, {}]) {
      const refused = await t.request("POST", "/api/auth/signup", { ip: "203.0.113.9", body });
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(60);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(await refused.json()).toEqual({
        error: `Too many accounts created from this network: try again in ${Math.ceil(retryAfter / 60)} minutes`,
        code: "rate_limited",
      });
    }
    expect(
      (
        await t.request("POST", "/api/auth/signup", {
          ip: "203.0.113.10",
          body: { email: "s10@example.com", password: "secret-pw" },
        })
      ).status,
    ).toBe(201);
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
