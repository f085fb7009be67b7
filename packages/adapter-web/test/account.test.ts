import { describe, expect, it } from "vitest";
import { h1, webHarness } from "./harness.js";

describe("a display name at sign-up", () => {
  const SUGGESTION = "Choose a display name: until you do, your listings and messages show";

  it("given: the account is created with it, and the account page suggests nothing", async () => {
    const h = webHarness();
    const b = h.browser();
    const done = await b.submit(await b.get("/signup"), "/signup", {
      email: "ada@example.com",
      password: "secret-password",
      display_name: "Ada Consulting",
    });
    expect([done.status, done.location]).toEqual([303, "/"]);
    const account = await b.get("/account");
    expect(account.html).toContain('value="Ada Consulting"');
    expect(account.html).not.toContain(SUGGESTION);
  });

  it("left out: sign-up leads to the account page, which suggests one until it is chosen", async () => {
    const h = webHarness();
    const b = h.browser();
    const done = await b.submit(await b.get("/signup"), "/signup", {
      email: "anon@example.com",
      password: "secret-password",
      display_name: "  ",
    });
    expect([done.status, done.location]).toEqual([303, "/account"]);
    const account = await b.follow(done);
    expect(h1(account.html)).toBe("Account");
    expect(account.html).toMatch(new RegExp(`${SUGGESTION} “Member [0-9a-f]{6}”`));
    const saved = await b.submit(account, "/account/profile", { display_name: "Anon Partners" });
    expect(saved.location).toBe("/account");
    expect((await b.follow(saved)).html).not.toContain(SUGGESTION);
  });

  it("too long: refused beside the field, as on the account page, and no account is made", async () => {
    const h = webHarness();
    const b = h.browser();
    const refused = await b.submit(await b.get("/signup"), "/signup", {
      email: "long@example.com",
      password: "secret-password",
      display_name: "x".repeat(101),
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain("Display name must be at most 100 characters");
    await expect(
      h.m.auth.logIn({ email: "long@example.com", password: "secret-password" }),
    ).rejects.toThrow();
  });
});

describe("account", () => {
  it("changes the display name, and refuses an empty one beside the field", async () => {
    const h = webHarness();
    const { browser, id } = await h.signedIn();
    const page = await browser.get("/account");
    const refused = await browser.submit(page, "/account/profile", { display_name: "   " });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain("Display name must not be empty");
    const saved = await browser.submit(page, "/account/profile", { display_name: "Ada Consulting" });
    expect(saved.location).toBe("/account");
    const admin = await h.m.admin.ensureAdmin({ email: "root@example.com", password: "admin-password" });
    expect(admin.user.id).not.toBe(id);
    const names = await h.m.profiles.list({ kind: "anonymous" }, {});
    expect(names.items.find((p) => p.id === id)?.displayName).toBe("Ada Consulting");
  });

  it("a password change needs the current password and a matching confirmation", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn("pw@example.com", "old-password");
    const page = await browser.get("/account");
    const refusals = [
      // 401, as a failed log-in: the confirm limiter counts it against the account.
      { current: "nope-nope", confirm: "new-password", status: 401, says: "Current password is wrong" },
      { current: "old-password", confirm: "other-password", status: 400, says: "does not match" },
    ];
    for (const { current, confirm, status, says } of refusals) {
      const refused = await browser.submit(page, "/account/password", {
        current_password: current,
        new_password: "new-password",
        confirm_password: confirm,
      });
      expect(refused.status).toBe(status);
      expect(refused.html).toContain(says);
    }
    await expect(h.m.auth.logIn({ email: "pw@example.com", password: "old-password" })).resolves.toBeTruthy();
  });
});

describe("API keys", () => {
  it("creates a key shown once with a copy button, lists it with its last use, and deactivates it", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const page = await browser.get("/account/keys");
    expect(h1(page.html)).toBe("API keys");
    const shown = await browser.submit(page, "/account/keys", { name: "pricing agent" });
    expect(shown.status).toBe(201);
    const secret = /id="new-key"[^>]*value="(psm_[0-9a-f]{64})"/.exec(shown.html)?.[1];
    expect(secret).toBeDefined();
    expect(shown.html).toContain('data-copy="new-key"');
    expect(shown.html).toContain("this is the only time it is shown");
    expect(shown.html).toContain("Your API key is created.");
    expect(shown.html).toContain("Never");
    // Shown once: the next visit has no value, and a resent form makes no second key.
    const again = await browser.get("/account/keys");
    expect(again.html).not.toContain(secret ?? "none");
    // Never expires, never used.
    expect(again.html.match(/<td data-label="(?:Expires|Last used)">Never<\/td>/g)).toHaveLength(2);
    const resentAnswer = await browser.submit(page, "/account/keys", { name: "pricing agent" });
    expect(resentAnswer.html).not.toMatch(/psm_[0-9a-f]{64}/);
    const resent = await browser.follow(resentAnswer);
    expect(resent.html).not.toMatch(/psm_[0-9a-f]{64}/);
    expect(resent.html).toContain("already created your API key");
    expect(resent.html.match(/\/deactivate"/g)).toHaveLength(1);

    const agent = await h.m.auth.authenticate({ apiKey: secret ?? "" });
    expect(agent.kind).toBe("user");
    const used = await browser.get("/account/keys");
    expect(used.html.match(/<td data-label="(?:Expires|Last used)">Never<\/td>/g)).toHaveLength(1);
    const keyId = /action="\/account\/keys\/([0-9a-f-]{36})\/deactivate"/.exec(used.html)?.[1] ?? "";
    const off = await browser.submit(used, `/account/keys/${keyId}/deactivate`);
    expect(off.location).toBe("/account/keys");
    const after = await browser.follow(off);
    expect(after.html).toContain("Deactivated");
    await expect(h.m.auth.authenticate({ apiKey: secret ?? "" })).rejects.toMatchObject({
      code: "api_key_revoked",
    });
  });

  it("answers the POST with the new key in a no-store page, and never puts it in a cookie", async () => {
    for (const publicUrl of ["http://localhost:3000", "https://market.example"]) {
      const h = webHarness({ publicUrl });
      const { browser } = await h.signedIn();
      const page = await browser.get("/account/keys");
      const res = await browser.submit(page, "/account/keys", { name: "ci" });
      expect(res.status).toBe(201);
      expect(res.location).toBeNull();
      expect(res.headers.get("cache-control")).toBe("no-store");
      const secret = /id="new-key"[^>]*value="(psm_[0-9a-f]{64})"/.exec(res.html)?.[1] ?? "";
      expect(secret).toMatch(/^psm_[0-9a-f]{64}$/);
      const setCookies = res.headers.getSetCookie();
      for (const line of setCookies) {
        expect(line).not.toMatch(/new_key/i);
        // Not as typed, nor encoded the way the old cookie carried it.
        const value = decodeURIComponent(/^[^=]*=([^;]*)/.exec(line)?.[1] ?? "");
        for (const form of [value, Buffer.from(value, "base64url").toString("utf8")]) {
          expect(form).not.toContain(secret.slice(4));
        }
      }
      expect([...browser.cookies.values()].join(";")).not.toContain(secret.slice(4));
      // The value the page showed is the key that was made.
      expect((await h.m.auth.authenticate({ apiKey: secret })).kind).toBe("user");
    }
  });
});

describe("admin", () => {
  it("deletes a user and a listing after a confirmation step", async () => {
    const h = webHarness();
    const { listing } = await h.author("member@example.com", { title: "Spam" });
    const other = await h.signedIn("other@example.com");
    const admin = await h.admin();

    const listings = await admin.get("/admin/listings");
    expect(listings.html).toContain("Spam");
    const confirmListing = await admin.get(`/admin/listings/${listing.id}/delete`);
    expect(h1(confirmListing.html)).toBe("Delete “Spam”?");
    const gone = await admin.submit(confirmListing, `/admin/listings/${listing.id}/delete`);
    expect(gone.location).toBe("/admin/listings");
    await expect(h.m.listings.get({ id: listing.id })).rejects.toMatchObject({ code: "listing_not_found" });

    const confirmUser = await admin.get(`/admin/users/${other.id}/delete`);
    expect(h1(confirmUser.html)).toBe("Delete this user?");
    await admin.submit(confirmUser, `/admin/users/${other.id}/delete`);
    const users = await admin.follow(await admin.submit(confirmUser, `/admin/users/${other.id}/delete`));
    expect(users.html).not.toContain("other@example.com");
    expect(users.html).toContain("member@example.com");
    // The deleted user's browser is signed out at once.
    expect((await other.browser.get("/account")).status).toBe(303);
  });
});
