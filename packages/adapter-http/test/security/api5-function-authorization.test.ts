/**
 * OWASP API5:2023 Broken Function Level Authorization. Every admin route
 * (from core's capability table, so a new one cannot be missed) with no
 * credentials, a user's JWT, a user's API key and an admin's API key.
 */
import { capabilityTable } from "@psm/adapter-http/testing";
import { beforeEach, describe, expect, test } from "vitest";
import { type Session, type Target, target, UNKNOWN_ID } from "./support/target.js";

const adminRoutes = capabilityTable("strict").filter((cap) => cap.auth === "admin");

let t: Target;
let admin: Session;
let user: Session;
let victim: Session;
let listingId: string;

beforeEach(async () => {
  t = target();
  admin = await t.admin();
  user = await t.signUp();
  victim = await t.signUp();
  listingId = (await t.listing(victim)).id;
});

/** The request of an admin route, aimed at real objects so a wrongly granted call would do harm. */
function requestOf(path: string, method: string): { path: string; body?: unknown } {
  const objectId = path.includes("/posts") ? listingId : victim.id;
  const concrete = path.replace("{id}", objectId);
  if (method !== "DELETE" || path.includes("{id}")) return { path: concrete };
  return { path: concrete, body: path.endsWith("/posts") ? { post_id: listingId } : { user_id: victim.id } };
}

async function victimIntact(): Promise<void> {
  expect((await t.request("GET", `/api/listings/${listingId}`)).status).toBe(200);
  const limit = await t.request("GET", `/api/profiles/limit?user_id=${victim.id}`);
  expect(limit.status).toBe(200);
}

describe("admin routes", () => {
  test("the table lists the admin routes (so the loops below are not empty)", () => {
    expect(adminRoutes.map((cap) => `${cap.method} ${cap.path}`).sort()).toEqual([
      "DELETE /api/admin/posts",
      "DELETE /api/admin/posts/{id}",
      "DELETE /api/admin/users",
      "DELETE /api/admin/users/{id}",
      "GET /api/admin/posts",
      "GET /api/admin/users",
    ]);
  });

  test("no credentials: 401", async () => {
    for (const cap of adminRoutes) {
      const { path, body } = requestOf(cap.path, cap.method);
      const res = await t.request(cap.method, path, { body });
      expect(res.status, `${cap.method} ${path}`).toBe(401);
      expect(await res.json()).toMatchObject({ code: "unauthenticated" });
    }
    await victimIntact();
  });

  test("a user's JWT: 403", async () => {
    for (const cap of adminRoutes) {
      const { path, body } = requestOf(cap.path, cap.method);
      const res = await t.request(cap.method, path, { token: user.token, body });
      expect(res.status, `${cap.method} ${path}`).toBe(403);
      expect(await res.json()).toMatchObject({ code: "admin_required" });
    }
    await victimIntact();
  });

  test("an API key, a user's or even an admin's: 401 (admin routes take a JWT only)", async () => {
    const keys = [(await t.apiKey(user)).key, (await t.apiKey(admin)).key];
    for (const key of keys) {
      for (const cap of adminRoutes) {
        const { path, body } = requestOf(cap.path, cap.method);
        const res = await t.request(cap.method, path, { key, body });
        expect(res.status, `${cap.method} ${path}`).toBe(401);
      }
    }
    await victimIntact();
  });

  test("the admin's JWT does work (the refusals above are about the credential)", async () => {
    expect((await t.request("GET", "/api/admin/users", { token: admin.token })).status).toBe(200);
    const res = await t.request("DELETE", `/api/admin/posts/${UNKNOWN_ID}`, { token: admin.token });
    expect(res.status).toBe(404);
  });

  test("an admin cannot be deleted, not even by another admin", async () => {
    const other = await t.admin();
    const res = await t.request("DELETE", `/api/admin/users/${other.id}`, { token: admin.token });
    expect(res.status).toBe(403);
  });
});
