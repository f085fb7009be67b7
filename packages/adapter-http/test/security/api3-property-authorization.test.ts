/**
 * OWASP API3:2023 Broken Object Property Level Authorization. Mass assignment
 * of fields a caller may not set, and responses that would over-share:
 * password hashes, key digests, other users' emails.
 */
import { describe, expect, test } from "vitest";
import { type Session, type Target, target } from "./support/target.js";

const FORGED = {
  id: "01900000-0000-7000-8000-00000000dead",
  user_id: "01900000-0000-7000-8000-00000000beef",
  is_admin: true,
  views: 1_000_000,
  account_type: "business",
  password_hash: "fake$000",
  token_version: 99,
  created_at: "2000-01-01T00:00:00.000Z",
};

describe("mass assignment", () => {
  test("signup ignores is_admin, id, account_type and the like", async () => {
    const t = target();
    const res = await t.request("POST", "/api/auth/signup", {
      body: { email: "new@example.com", password: "long-enough", ...FORGED },
    });
    expect(res.status).toBe(201);
    const { user } = await t.json<{ user: Record<string, unknown> }>(res);
    expect(user).toMatchObject({ is_admin: false, account_type: "personal" });
    expect(user.id).not.toBe(FORGED.id);
    expect(user.created_at).not.toBe(FORGED.created_at);
    const login = await t.request("POST", "/api/auth/login", {
      body: { email: "new@example.com", password: "long-enough" },
    });
    expect(login.status).toBe(200);
  });

  test("listing create ignores id, user_id, views and status; a patch refuses status expired", async () => {
    const t = target();
    const s = await t.signUp();
    const res = await t.request("POST", "/api/listings", {
      token: s.token,
      body: { title: "T", description: "D", category: "cybersecurity", status: "expired", ...FORGED },
    });
    expect(res.status).toBe(201);
    const { listing } = await t.json<{ listing: Record<string, unknown> }>(res);
    expect(listing).toMatchObject({ user_id: s.id, views: 0, status: "active" });
    expect(listing.id).not.toBe(FORGED.id);

    const expired = await t.request("PATCH", `/api/listings/${listing.id}`, {
      token: s.token,
      body: { status: "expired" },
    });
    expect(expired.status).toBe(400);
    const patched = await t.request("PATCH", `/api/listings/${listing.id}`, {
      token: s.token,
      body: { title: "T2", ...FORGED },
    });
    expect(patched.status).toBe(200);
    expect((await t.json<{ listing: Record<string, unknown> }>(patched)).listing).toMatchObject({
      id: listing.id,
      user_id: s.id,
      views: 0,
      title: "T2",
    });
  });

  test("display-name update and self profile sync cannot raise rights or account type", async () => {
    const t = target();
    const s = await t.signUp();
    const update = await t.request("PUT", "/api/users/update", {
      token: s.token,
      body: { display_name: "Me", ...FORGED },
    });
    expect(update.status).toBe(200);
    const sync = await t.request("POST", "/api/profiles/sync", {
      token: s.token,
      body: {
        id: s.id,
        email: "changed@example.com",
        display_name: "Me2",
        account_type: "business",
        is_admin: true,
      },
    });
    expect([200, 403]).toContain(sync.status);
    const me = await t.json<{ user: Record<string, unknown> }>(
      await t.request("GET", "/api/auth/me", { token: s.token }),
    );
    expect(me.user).toMatchObject({ id: s.id, email: s.email, is_admin: false, account_type: "personal" });
    expect((await t.request("GET", "/api/admin/users", { token: s.token })).status).toBe(403);
  });
});

/** Paths of keys that name secrets, and of strings that are someone else's address. */
function leaks(value: unknown, foreignEmails: Set<string>, path = "$"): string[] {
  if (typeof value === "string") return foreignEmails.has(value.toLowerCase()) ? [path] : [];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const here = `${path}.${key}`;
    const named = /^password|hash|digest|secret/i.test(key) ? [here] : [];
    return [...named, ...leaks(inner, foreignEmails, here)];
  });
}

async function exerciseEveryReader(t: Target, me: Session, other: Session): Promise<void> {
  const listing = await t.listing(other, { contact_email: "sales@vendor.example" });
  await t.request("POST", "/api/messages", {
    token: me.token,
    body: { listing_id: listing.id, receiver_id: other.id, content: "Hello" },
  });
  const { key } = await t.apiKey(me);
  const gets = [
    "/api/auth/me",
    "/api/keys",
    "/api/listings",
    `/api/listings/${listing.id}`,
    `/api/listings?user_id=${other.id}`,
    "/api/messages?type=sent",
    "/api/messages?type=received",
    "/api/profiles",
    `/api/profiles/admin?user_id=${other.id}`,
    `/api/profiles/limit?user_id=${other.id}`,
    "/api/capabilities",
  ];
  for (const path of gets) {
    await t.request("GET", path, { token: me.token });
    await t.request("GET", path, { key });
  }
  await t.request("PUT", "/api/users/update", { token: me.token, body: { display_name: "Me" } });
  await t.request("POST", "/api/profiles/limit", { token: me.token, body: { user_id: me.id } });
  await t.request("POST", "/api/auth/login", { body: { email: other.email, password: "wrong-password" } });
  await t.request("POST", "/api/auth/reset-password", { body: { email: other.email } });
}

describe("over-sharing", () => {
  test("no answer carries a password, a hash or digest, or another user's email", async () => {
    const t = target();
    const me = await t.signUp("me@example.com");
    const other = await t.signUp("other@example.com");
    const seenBefore = t.seen.length;
    await exerciseEveryReader(t, me, other);
    const answers = t.seen.slice(seenBefore);
    expect(answers.length).toBeGreaterThan(20);
    const found = answers.flatMap((s) => leaks(s.body, new Set([other.email]), `${s.method} ${s.path}`));
    expect(found).toEqual([]);
  });

  test("the checker itself finds a leak when one is there", () => {
    const planted = { user: { email: "other@example.com", password_hash: "x", keys: [{ key_hash: "y" }] } };
    expect(leaks(planted, new Set(["other@example.com"]))).toEqual([
      "$.user.email",
      "$.user.password_hash",
      "$.user.keys.0.key_hash",
    ]);
  });

  test("an admin sees emails (their right), but never hashes", async () => {
    const t = target();
    const admin = await t.admin();
    await t.signUp();
    const before = t.seen.length;
    await t.request("GET", "/api/admin/users", { token: admin.token });
    await t.request("GET", "/api/keys", { token: admin.token });
    await t.request("GET", "/api/profiles", { token: admin.token });
    const found = t.seen.slice(before).flatMap((s) => leaks(s.body, new Set(), s.path));
    expect(found).toEqual([]);
  });
});
