import type { Actor } from "@psm/core";
import { describe, expect, it } from "vitest";
import { type Page, webHarness } from "./harness.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The value a page shows once, or undefined. */
function secretOf(html: string): string | undefined {
  return /id="new-key"[^>]*value="(psm_[0-9a-f]{64})"/.exec(html)?.[1];
}

/** The ids of the keys a page offers to rotate, in its order (newest first). */
function rotatable(page: Page): string[] {
  return [...page.html.matchAll(/action="\/account\/keys\/([0-9a-f-]{36})\/rotate"/g)].map((m) => m[1] ?? "");
}

async function keysOf(h: ReturnType<typeof webHarness>, actor: Actor) {
  return (await h.m.apiKeys.list(actor, { limit: 100 })).items;
}

describe("API keys: scopes and expiry", () => {
  it("creates a key with two scopes and an expiry, stores them and lists them", async () => {
    const h = webHarness();
    const { browser, actor, email } = await h.signedIn();
    const page = await browser.get("/account/keys");
    // Every scope a member may grant, each a labelled box with its description; no admin.
    expect(page.html).toContain('<label for="scope-listings-write"><code>listings:write</code></label>');
    expect(page.html).toContain("Create, edit and delete your listings");
    expect(page.html).not.toContain('name="scope.admin"');
    expect(page.html).toMatch(/<fieldset id="scopes"[^>]*aria-describedby="scopes-hint"/);
    expect(page.html).toContain("Tick none for full access");

    const shown = await browser.submit(page, "/account/keys", {
      name: "reader",
      "scope.messages:read": "yes",
      "scope.listings:write": "yes",
      expires_in: "30",
    });
    expect(shown.status).toBe(201);
    expect(shown.headers.get("cache-control")).toBe("no-store");
    expect(secretOf(shown.html)).toMatch(/^psm_/);
    const [key] = await keysOf(h, actor);
    expect(key?.scopes).toEqual(["listings:write", "messages:read"]);
    expect(key?.expiresAt?.getTime()).toBe(h.m.now().getTime() + 30 * DAY_MS);
    expect(key?.prefix).toBe(secretOf(shown.html)?.slice(0, 12));

    const listed = await browser.get("/account/keys");
    expect(listed.html).toContain(`<code>${key?.prefix}…</code>`);
    expect(listed.html).toContain("<li><code>listings:write</code></li><li><code>messages:read</code></li>");
    expect(listed.html).toContain("31 Jan 2026, 00:00 UTC");
    expect(listed.html).toContain('<span class="badge badge-active">Active</span>');
    // A key that expires stops by itself, and the list says so (to a new session: sessions last a week).
    h.deps.clock.advance(30 * DAY_MS);
    const again = h.browser();
    await again.submit(await again.get("/login"), "/login", { email, password: "secret-password" });
    const later = await again.get("/account/keys");
    expect(later.html).toContain(`<td data-label="Expires">Expired</td>`);
    expect(later.html).toContain('<span class="badge badge-expired">Expired</span>');
    expect(rotatable(later)).toEqual([]);
  });

  it("a key made with no box ticked has full access and never expires", async () => {
    const h = webHarness();
    const { browser, actor } = await h.signedIn();
    const shown = await browser.submit(await browser.get("/account/keys"), "/account/keys", {
      name: "everything",
      expires_in: "never",
    });
    expect(shown.status).toBe(201);
    const [key] = await keysOf(h, actor);
    expect(key?.scopes).toBeNull();
    expect(key?.expiresAt).toBeNull();
    expect(shown.html).toContain(`<td data-label="Scopes">Full access</td>`);
  });

  it("refuses a scope the member may not grant or that does not exist, beside the field, making nothing", async () => {
    const h = webHarness();
    const { browser, actor } = await h.signedIn();
    const page = await browser.get("/account/keys");
    const crafted: { fields: Record<string, string>; says: string }[] = [
      {
        fields: { "scope.admin": "yes", "scope.messages:read": "yes" },
        says: "you may not give a key: admin",
      },
      { fields: { "scope.everything": "yes" }, says: "Scopes must each be one of those listed" },
    ];
    for (const { fields, says } of crafted) {
      const refused = await browser.submit(page, "/account/keys", { name: "sneaky", ...fields });
      expect(refused.status).toBe(400);
      expect(refused.html).toContain('<div class="error-summary"');
      expect(refused.html).toContain('<a href="#scope-listings-write">');
      expect(refused.html).toMatch(
        new RegExp(`id="scopes-error"><span class="visually-hidden">Error: </span>[^<]*${says}`),
      );
      expect(refused.html).toContain('value="sneaky"');
      expect(secretOf(refused.html)).toBeUndefined();
    }
    const badExpiry = await browser.submit(page, "/account/keys", { name: "x", expires_in: "1000" });
    expect(badExpiry.status).toBe(400);
    expect(badExpiry.html).toContain('id="expires_in-error"');
    expect(await keysOf(h, actor)).toEqual([]);
    // The corrected form (the same token) still makes its key.
    const fixed = await browser.submit(page, "/account/keys", {
      name: "sneaky",
      "scope.messages:read": "yes",
    });
    expect(fixed.status).toBe(201);
    expect((await keysOf(h, actor)).map((k) => k.scopes)).toEqual([["messages:read"]]);
  });

  it("offers an admin the admin scope", async () => {
    const h = webHarness();
    const admin = await h.admin();
    const page = await admin.get("/account/keys");
    expect(page.html).toContain('name="scope.admin"');
    const made = await admin.submit(page, "/account/keys", { name: "ops", "scope.admin": "yes" });
    expect(made.status).toBe(201);
    expect(made.html).toContain("<li><code>admin</code></li>");
  });
});

describe("API keys: rotation", () => {
  it("shows the new key once, keeps the old one working for the grace, and lists both", async () => {
    const h = webHarness();
    const { browser, actor } = await h.signedIn();
    const created = await browser.submit(await browser.get("/account/keys"), "/account/keys", {
      name: "agent",
      "scope.events:read": "yes",
      expires_in: "90",
    });
    const oldSecret = secretOf(created.html) ?? "";
    const page = await browser.get("/account/keys");
    const [oldId = ""] = rotatable(page);
    expect(page.html).toContain(`<label for="grace-${oldId}">Old key works for`);
    expect(page.html).toContain('<option value="86400" selected="">1 day</option>');

    const rotated = await browser.submit(page, `/account/keys/${oldId}/rotate`, { grace_seconds: "3600" });
    expect(rotated.status).toBe(201);
    expect(rotated.location).toBeNull();
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    const newSecret = secretOf(rotated.html) ?? "";
    expect(newSecret).toMatch(/^psm_[0-9a-f]{64}$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.html).toContain("Your API key is rotated.");
    expect(rotated.html).toContain(
      `It replaces <code>${oldSecret.slice(0, 12)}…</code>, which keeps working until`,
    );
    expect(rotated.html).toContain("1 Jan 2026, 01:00 UTC");
    for (const line of rotated.headers.getSetCookie()) expect(line).not.toContain(newSecret.slice(4));

    // Both work during the grace; the new one has the same name, scopes and expiry.
    expect((await h.m.auth.authenticate({ apiKey: oldSecret })).kind).toBe("user");
    expect((await h.m.auth.authenticate({ apiKey: newSecret })).kind).toBe("user");
    const [fresh, old] = await keysOf(h, actor);
    expect(fresh?.scopes).toEqual(["events:read"]);
    expect(fresh?.expiresAt?.getTime()).toBe(h.m.now().getTime() + 90 * DAY_MS);
    expect(old?.expiresAt?.getTime()).toBe(h.m.now().getTime() + 3600_000);
    const listed = await browser.get("/account/keys");
    expect(listed.html).not.toContain(newSecret);
    expect(rotatable(listed)).toEqual([fresh?.id, old?.id]);
    expect(listed.html).toContain(`<code>${newSecret.slice(0, 12)}…</code>`);
    expect(listed.html).toContain(`<code>${oldSecret.slice(0, 12)}…</code>`);

    // A resent rotate form makes no second key and never shows a value again.
    const resent = await browser.submit(page, `/account/keys/${oldId}/rotate`, { grace_seconds: "3600" });
    expect(resent.status).toBe(303);
    expect(secretOf(resent.html)).toBeUndefined();
    expect((await browser.follow(resent)).html).toContain("already rotated the key");
    expect(await keysOf(h, actor)).toHaveLength(2);

    h.deps.clock.advance(3600_000);
    await expect(h.m.auth.authenticate({ apiKey: oldSecret })).rejects.toMatchObject({
      code: "api_key_expired",
    });
    expect((await h.m.auth.authenticate({ apiKey: newSecret })).kind).toBe("user");
    const after = await browser.get("/account/keys");
    expect(after.html.match(/badge-expired">Expired</g)).toHaveLength(1);
    expect(rotatable(after)).toEqual([fresh?.id]);
  });

  it("with no grace the old key stops at once, and the page says so", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const created = await browser.submit(await browser.get("/account/keys"), "/account/keys", { name: "ci" });
    const oldSecret = secretOf(created.html) ?? "";
    const page = await browser.get("/account/keys");
    const [id = ""] = rotatable(page);
    const rotated = await browser.submit(page, `/account/keys/${id}/rotate`, { grace_seconds: "0" });
    expect(rotated.status).toBe(201);
    expect(rotated.html).toContain("which has stopped working.");
    await expect(h.m.auth.authenticate({ apiKey: oldSecret })).rejects.toMatchObject({
      code: "api_key_expired",
    });
  });

  it("refuses a rotation without a valid form token, of another's key, or with a made-up grace", async () => {
    const h = webHarness();
    const { browser, actor } = await h.signedIn();
    await browser.submit(await browser.get("/account/keys"), "/account/keys", { name: "mine" });
    const page = await browser.get("/account/keys");
    const [id = ""] = rotatable(page);
    const form = { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:3000" };
    for (const body of ["grace_seconds=3600", "_csrf=forged&grace_seconds=3600"]) {
      const refused = await browser.post(`/account/keys/${id}/rotate`, body, form);
      expect(refused.status).toBe(403);
      expect(refused.html).toContain("This form has expired");
    }
    const bad = await browser.submit(page, `/account/keys/${id}/rotate`, { grace_seconds: "forever" });
    expect((await browser.follow(bad)).html).toContain("Choose how long the old key keeps working");
    const tooLong = await browser.submit(page, `/account/keys/${id}/rotate`, { grace_seconds: "604801" });
    expect((await browser.follow(tooLong)).html).toContain("Choose how long the old key keeps working");
    expect(await keysOf(h, actor)).toHaveLength(1);

    // Another member posting their own valid form at this key's address rotates nothing.
    const other = await h.signedIn();
    const theirs = await other.browser.get("/account/keys");
    const tokenOf = /name="_csrf" value="([^"]+)"/.exec(theirs.html)?.[1] ?? "";
    const body = new URLSearchParams({ _csrf: tokenOf, grace_seconds: "3600" }).toString();
    const foreign = await other.browser.post(`/account/keys/${id}/rotate`, body, form);
    expect(foreign.status).toBe(303);
    expect((await other.browser.follow(foreign)).html).toContain("there is nothing to rotate");
    expect(await keysOf(h, actor)).toHaveLength(1);
    expect(await keysOf(h, other.actor)).toHaveLength(0);
  });

  it("escapes a hostile key name everywhere the page shows it", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const name = `<script>alert("x")</script><img src=x onerror=alert(1)>&amp;`;
    const created = await browser.submit(await browser.get("/account/keys"), "/account/keys", { name });
    const page = await browser.get("/account/keys");
    const [id = ""] = rotatable(page);
    const rotated = await browser.submit(page, `/account/keys/${id}/rotate`);
    const refused = await browser.submit(page, "/account/keys", { name, "scope.admin": "yes" });
    for (const shown of [created, page, rotated, refused]) {
      expect(shown.html).not.toContain("<script>alert");
      expect(shown.html).not.toContain("<img src=x");
      expect(shown.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
      expect(shown.html).toContain("&amp;amp;");
    }
  });
});
