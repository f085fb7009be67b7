import { ANONYMOUS } from "@psm/core";
import { describe, expect, it } from "vitest";
import { formToken, h1, ORIGIN, webHarness } from "./harness.js";

const LISTING = {
  title: "Kubernetes audit",
  description: "A careful review",
  category: "cybersecurity" as const,
};

describe("the session cookie", () => {
  it("is HttpOnly and SameSite=Lax, not Secure over http; logging out ends it in storage", async () => {
    const h = webHarness();
    await h.m.auth.signUp({ email: "a@example.com", password: "secret-password" });
    const b = h.browser();
    const login = await b.get("/login");
    const res = await b.submit(login, "/login", { email: "a@example.com", password: "secret-password" });
    const cookie = res.headers.getSetCookie().find((line) => line.startsWith("psm_session="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    const token = b.cookies.get("psm_session") ?? "";
    expect((await h.m.sessions.resume(token)).kind).toBe("user");

    const home = await b.get("/");
    const out = await b.submit(home, "/logout");
    expect(out.status).toBe(303);
    // Ended server-side: the old cookie value no longer signs anyone in.
    expect((await h.m.sessions.resume(token)).kind).toBe("anonymous");
    const replay = await h.app.request("/account", { headers: { cookie: `psm_session=${token}` } });
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toMatch(/^\/login/);
  });

  it("is Secure with the __Host- prefix when the public URL is https", async () => {
    const h = webHarness({ publicUrl: "https://market.example" });
    await h.m.auth.signUp({ email: "s@example.com", password: "secret-password" });
    const b = h.browser();
    const login = await b.get("/login");
    const anonymous = login.headers.getSetCookie().join("\n");
    expect(anonymous).toMatch(/__Host-psm_csrf=[^;]+;.*Secure/);
    const res = await b.submit(login, "/login", { email: "s@example.com", password: "secret-password" });
    const cookie = res.headers.getSetCookie().find((line) => line.startsWith("__Host-psm_session="));
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Path=\//);
  });

  it("a password change ends every other session, and keeps this browser signed in", async () => {
    const h = webHarness();
    const first = await h.signedIn("pw@example.com", "old-password");
    const second = h.browser();
    const login = await second.get("/login");
    await second.submit(login, "/login", { email: "pw@example.com", password: "old-password" });
    expect((await second.get("/account")).status).toBe(200);

    const account = await first.browser.get("/account");
    const changed = await first.browser.submit(account, "/account/password", {
      current_password: "old-password",
      new_password: "new-password",
      confirm_password: "new-password",
    });
    expect(changed.status).toBe(303);
    const after = await first.browser.follow(changed);
    expect(after.status).toBe(200);
    expect(after.html).toContain("Your password is changed");
    expect((await second.get("/account")).status).toBe(303);
  });
});

describe("CSRF", () => {
  it("refuses a cross-site form POST, and one without a token or with another visitor's", async () => {
    const h = webHarness();
    const victim = await h.signedIn();
    const page = await victim.browser.get("/post");
    const token = formToken(page.html, "/post");
    const form = (extra: Record<string, string>) => new URLSearchParams({ ...LISTING, ...extra }).toString();
    const urlencoded = { "content-type": "application/x-www-form-urlencoded" };

    const crossSite = await victim.browser.post("/post", form({ _csrf: token }), {
      ...urlencoded,
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    });
    expect(crossSite.status).toBe(403);
    expect(h1(crossSite.html)).toBe("Form refused");

    const noToken = await victim.browser.post("/post", form({}), { ...urlencoded, origin: ORIGIN });
    expect(noToken.status).toBe(403);

    const attacker = await h.signedIn();
    const theirs = formToken((await attacker.browser.get("/post")).html, "/post");
    const borrowed = await victim.browser.post("/post", form({ _csrf: theirs }), {
      ...urlencoded,
      origin: ORIGIN,
    });
    expect(borrowed.status).toBe(403);

    const forged = await victim.browser.post(
      "/post",
      form({ _csrf: `${token.slice(0, 23)}${"A".repeat(43)}` }),
      {
        ...urlencoded,
        origin: ORIGIN,
      },
    );
    expect(forged.status).toBe(403);
    expect((await h.m.listings.search(ANONYMOUS, {})).items).toHaveLength(0);

    // The same request from the site itself goes through.
    const ok = await victim.browser.post("/post", form({ _csrf: token }), { ...urlencoded, origin: ORIGIN });
    expect(ok.status).toBe(303);
  });

  it("a log-in form needs the anonymous cookie it was issued with", async () => {
    const h = webHarness();
    await h.m.auth.signUp({ email: "x@example.com", password: "secret-password" });
    const page = await h.browser().get("/login");
    const other = h.browser();
    const res = await other.post(
      "/login",
      new URLSearchParams({
        _csrf: formToken(page.html, "/login"),
        email: "x@example.com",
        password: "secret-password",
      }).toString(),
      { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    );
    expect(res.status).toBe(403);
    expect(other.cookies.has("psm_session")).toBe(false);
  });
});

describe("escaping", () => {
  it("shows user text as text everywhere: titles, descriptions, names, messages, search terms", async () => {
    const h = webHarness();
    const evil = "<script>alert(1)</script>";
    const author = await h.signedIn("evil@example.com");
    const { actor } = author;
    await h.m.users.updateDisplayName(actor, { displayName: `"><img src=x onerror=alert(1)>` });
    const listing = await h.m.listings.create(actor, {
      ...LISTING,
      title: evil,
      description: `${evil} & more`,
    });
    const buyer = await h.signedIn();
    await h.m.messages.send(buyer.actor, { listingId: listing.id, receiverId: author.id, content: evil });

    const pages = [
      await h.browser().get(`/?q=${encodeURIComponent(evil)}`),
      await h.browser().get("/"),
      await h.browser().get(`/listings/${listing.id}`),
      await author.browser.get("/inbox"),
      await author.browser.get("/my/listings"),
      await author.browser.get(`/my/listings/${listing.id}/edit`),
    ];
    for (const page of pages) {
      expect(page.html).not.toContain("<script>alert(1)</script>");
      expect(page.html).not.toContain("<img src=x");
    }
    expect(pages[2]?.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(pages[3]?.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(pages[0]?.html).toContain("&lt;script&gt;");
  });
});

describe("forms that cannot be read", () => {
  it("answers malformed encodings and oversized bodies with a page, not a crash", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const page = await browser.get("/account");
    const token = formToken(page.html, "/account/profile");
    const headers = { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN };
    const broken = await browser.post("/account/profile", `_csrf=${token}&display_name=%FF`, headers);
    expect(broken.status).toBe(400);
    expect(h1(broken.html)).toBe("Request not understood");
    const huge = await browser.post(
      "/account/profile",
      `_csrf=${token}&display_name=${"a".repeat(1024 * 1024 + 1)}`,
      headers,
    );
    expect(huge.status).toBe(413);
    const nul = await browser.post("/account/profile", `_csrf=${token}&display_name=a%00b`, headers);
    expect(nul.status).toBe(400);
    expect(nul.html).toContain('aria-invalid="true"');
  });
});
