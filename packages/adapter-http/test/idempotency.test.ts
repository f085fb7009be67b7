import { describe, expect, test } from "vitest";
import { harness } from "./helpers.js";

const LISTING = { title: "Audit", description: "A careful audit", category: "cybersecurity", price: 900 };

async function ownListings(h: ReturnType<typeof harness>, token: string, userId: string) {
  const res = await h.call("GET", `/api/listings?user_id=${userId}&status=all`, { token });
  return (await h.json<{ items: { id: string }[] }>(res)).items;
}

describe("Idempotency-Key", () => {
  test("a retry replays the first answer byte for byte, marked as a replay, and creates nothing", async () => {
    const h = harness();
    const a = await h.signUp();
    const headers = { "Idempotency-Key": "create-audit-1" };
    const first = await h.call("POST", "/api/listings", { token: a.token, body: LISTING, headers });
    const again = await h.call("POST", "/api/listings", { token: a.token, body: LISTING, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await again.text()).toBe(await first.text());
    expect(await ownListings(h, a.token, a.id)).toHaveLength(1);
  });

  test("100 concurrent creates with one key make exactly one listing; every other answer is 409 or the replay", async () => {
    const h = harness();
    const a = await h.signUp();
    const headers = { "Idempotency-Key": "burst" };
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        h.call("POST", "/api/listings", { token: a.token, body: LISTING, headers }),
      ),
    );
    const bodies = await Promise.all(answers.map((res) => res.text()));
    const created = answers.filter((res) => res.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(answers.every((res) => res.status === 201 || res.status === 409)).toBe(true);
    const fresh = answers.filter(
      (res) => res.status === 201 && res.headers.get("Idempotent-Replayed") === null,
    );
    expect(fresh).toHaveLength(1);
    const createdBodies = new Set(bodies.filter((_, i) => answers[i]?.status === 201));
    expect(createdBodies.size).toBe(1);
    for (const res of answers.filter((r) => r.status === 409)) {
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
    expect(await ownListings(h, a.token, a.id)).toHaveLength(1);
  });

  test("the same key with another body is 422; another user, or another route, is independent", async () => {
    const h = harness();
    const a = await h.signUp();
    const b = await h.signUp();
    const headers = { "Idempotency-Key": "shared-key" };
    expect((await h.call("POST", "/api/listings", { token: a.token, body: LISTING, headers })).status).toBe(
      201,
    );
    const reused = await h.call("POST", "/api/listings", {
      token: a.token,
      body: { ...LISTING, price: 1 },
      headers,
    });
    expect(reused.status).toBe(422);
    expect(await reused.json()).toMatchObject({ code: "idempotency_key_reused" });
    expect((await h.call("POST", "/api/listings", { token: b.token, body: LISTING, headers })).status).toBe(
      201,
    );
    const key = await h.call("POST", "/api/keys", { token: a.token, body: { name: "k" }, headers });
    expect(key.status).toBe(200);
    expect(key.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await ownListings(h, a.token, a.id)).toHaveLength(1);
    expect(await ownListings(h, b.token, b.id)).toHaveLength(1);
  });

  test("a 400 is not stored, so the corrected retry runs; a 404 is stored and replayed", async () => {
    const h = harness();
    const a = await h.signUp();
    const headers = { "Idempotency-Key": "fix-me" };
    const bad = await h.call("POST", "/api/listings", {
      token: a.token,
      body: { ...LISTING, title: "" },
      headers,
    });
    expect(bad.status).toBe(400);
    const fixed = await h.call("POST", "/api/listings", { token: a.token, body: LISTING, headers });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("Idempotent-Replayed")).toBeNull();

    const gone = "01900000-0000-7000-8000-000000000000";
    const del = { "Idempotency-Key": "delete-gone" };
    const first = await h.call("DELETE", `/api/listings/${gone}`, { token: a.token, headers: del });
    const again = await h.call("DELETE", `/api/listings/${gone}`, { token: a.token, headers: del });
    expect(first.status).toBe(404);
    expect(again.status).toBe(404);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
  });

  test("a malformed key is 400 invalid_idempotency_key and writes nothing", async () => {
    const h = harness();
    const a = await h.signUp();
    for (const key of ["x".repeat(256), "has space", "ünï"]) {
      const res = await h.call("POST", "/api/listings", {
        token: a.token,
        body: LISTING,
        headers: { "Idempotency-Key": key },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "invalid_idempotency_key" });
    }
    expect(await ownListings(h, a.token, a.id)).toHaveLength(0);
  });

  test("sign-up is keyed by its address; login ignores the header", async () => {
    const h = harness();
    const body = { email: "Keyed@Example.com", password: "secret-password" };
    const headers = { "Idempotency-Key": "signup-1" };
    const first = await h.call("POST", "/api/auth/signup", { body, headers });
    const again = await h.call("POST", "/api/auth/signup", { body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const login = { email: "keyed@example.com", password: "secret-password" };
    const l1 = await h.call("POST", "/api/auth/login", {
      body: login,
      headers: { "Idempotency-Key": "bad key" },
    });
    expect(l1.status).toBe(200);
    expect(l1.headers.get("Idempotent-Replayed")).toBeNull();
  });

  test("a keyed view counts once", async () => {
    const h = harness();
    const a = await h.signUp();
    const listing = await h.listing(a);
    const headers = { "Idempotency-Key": "view-once" };
    for (let i = 0; i < 3; i++) {
      expect((await h.call("POST", `/api/listings/${listing.id}/view`, { headers })).status).toBe(200);
    }
    const res = await h.call("GET", `/api/listings/${listing.id}`);
    expect((await h.json<{ listing: { views: number } }>(res)).listing.views).toBe(1);
  });

  test("OpenAPI documents the header on keyed writes only", async () => {
    const h = harness();
    const doc = await h.json<{
      paths: Record<
        string,
        Record<string, { parameters?: { name: string }[]; responses: Record<string, unknown> }>
      >;
    }>(await h.call("GET", "/openapi.json"));
    const names = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.parameters ?? []).map((p) => p.name);
    expect(names("/api/listings", "post")).toContain("Idempotency-Key");
    expect(doc.paths["/api/listings"]?.post?.responses).toHaveProperty("409");
    expect(names("/api/listings", "get")).not.toContain("Idempotency-Key");
    expect(names("/api/auth/login", "post")).not.toContain("Idempotency-Key");
  });
});
