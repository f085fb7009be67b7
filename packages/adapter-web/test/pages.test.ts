import { describe, expect, it } from "vitest";
import { type Browser, h1, ORIGIN, type Page, title, webHarness } from "./harness.js";

/** The landmarks and furniture every page has: skip link, banner, main navigation, one main, footer. */
function expectPageShell(page: Page): void {
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  expect(page.html.startsWith("<!doctype html>")).toBe(true);
  expect(page.html).toContain('<html lang="en">');
  expect(page.html).toMatch(/<a class="skip-link" href="#main">Skip to main content<\/a>/);
  expect(page.html).toMatch(/<header class="site-header">/);
  expect(page.html).toMatch(/<nav aria-label="Main">/);
  expect(page.html.match(/<main /g)).toHaveLength(1);
  expect(page.html).toContain('<main id="main"');
  expect(page.html).toMatch(/<footer class="site-footer">/);
  h1(page.html);
  // No inline script or style anywhere: the CSP forbids them and nothing needs them.
  expect(page.html).not.toMatch(/<script(?![^>]*\ssrc=)/);
  expect(page.html).not.toMatch(/\sstyle=|<style/);
  expect(page.html).not.toMatch(/\son[a-z]+=/);
  const csp = page.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).not.toContain("unsafe-inline");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(page.headers.get("cache-control")).toBe("no-store");
}

/** Every label names a control on the page by id. */
function expectLabelledControls(page: Page): void {
  const ids = new Set([...page.html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
  for (const [, target] of page.html.matchAll(/<label for="([^"]+)"/g)) expect(ids).toContain(target);
  const controls = [...page.html.matchAll(/<(input|select|textarea)\s[^>]*>/g)].map((m) => m[0]);
  for (const control of controls) {
    if (/type="hidden"/.test(control)) continue;
    const id = /\sid="([^"]+)"/.exec(control)?.[1];
    expect(id, control).toBeTruthy();
    expect(page.html, control).toContain(`<label for="${id}"`);
  }
}

async function visit(browser: Browser, path: string): Promise<Page> {
  const page = await browser.get(path);
  expect(page.status, `${path}: ${page.html.slice(0, 300)}`).toBe(200);
  expectPageShell(page);
  expectLabelledControls(page);
  return page;
}

describe("every page, signed out", () => {
  it("answers 200 with landmarks, one h1, a unique title and labelled controls", async () => {
    const h = webHarness();
    const { listing } = await h.author("author@example.com", {
      title: "Kubernetes audit",
      description: "A careful review",
    });
    const b = h.browser();
    const titles = new Set<string>();
    for (const path of [
      "/",
      "/?q=kube",
      `/listings/${listing.id}`,
      "/login",
      "/signup",
      "/forgot-password",
    ]) {
      const page = await visit(b, path);
      titles.add(title(page.html));
    }
    expect(titles.size).toBe(6);
    const home = await b.get("/");
    expect(home.html).toContain('<a href="/login"');
    expect(home.html).toContain('<a class="nav-cta" href="/signup"');
  });

  it("sends a signed-out visitor of a private page to log in, and back afterwards", async () => {
    const h = webHarness();
    const b = h.browser();
    for (const path of ["/post", "/my/listings", "/inbox", "/account", "/account/keys", "/admin/users"]) {
      const page = await b.get(path);
      expect(page.status).toBe(303);
      expect(page.location).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
    await h.m.auth.signUp({ email: "back@example.com", password: "secret-password" });
    const login = await b.get("/login?next=%2Finbox");
    expect(login.html).toContain('name="next" value="/inbox"');
    const done = await b.submit(login, "/login", {
      email: "back@example.com",
      password: "secret-password",
      next: "/inbox",
    });
    expect(done.location).toBe("/inbox");
  });

  it("never sends a visitor off the site after logging in", async () => {
    const h = webHarness();
    await h.m.auth.signUp({ email: "safe@example.com", password: "secret-password" });
    for (const next of ["https://evil.example", "//evil.example", "/\\evil.example"]) {
      const b = h.browser();
      const login = await b.get(`/login?next=${encodeURIComponent(next)}`);
      const done = await b.submit(login, "/login", {
        email: "safe@example.com",
        password: "secret-password",
        next,
      });
      expect(done.location).toBe("/");
    }
  });

  it("keeps next on the site when a browser would strip a tab or newline from it (/\\t/evil.example)", async () => {
    const h = webHarness();
    await h.m.auth.signUp({ email: "strip@example.com", password: "secret-password" });
    // A browser resolves a URL as `new URL` does: tab, LF and CR vanish, so `/\t/x` is `//x`.
    const staysHere = (target: string | null | undefined) => new URL(target ?? "", ORIGIN).origin;
    for (const next of ["/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "/.//evil.example"]) {
      const b = h.browser();
      const login = await b.get(`/login?next=${encodeURIComponent(next)}`);
      const field = /name="next" value="([^"]*)"/.exec(login.html)?.[1];
      expect(field, JSON.stringify(next)).toBe("/");
      const done = await b.submit(login, "/login", {
        email: "strip@example.com",
        password: "secret-password",
        next,
      });
      expect(done.status).toBe(303);
      expect(staysHere(done.location), JSON.stringify(next)).toBe(ORIGIN);
      expect(done.location).toBe("/");
      // Signed in, the log-in page sends the visitor straight on: to this site too.
      const again = await b.get(`/login?next=${encodeURIComponent(next)}`);
      expect(staysHere(again.location), JSON.stringify(next)).toBe(ORIGIN);
    }
    const encoded = await h.browser().get("/login?next=/%09/evil.example");
    expect(staysHere(/name="next" value="([^"]*)"/.exec(encoded.html)?.[1])).toBe(ORIGIN);
  });
});

describe("every page, signed in", () => {
  it("answers 200 with landmarks, one h1, a unique title and labelled controls", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const titles = new Set<string>();
    for (const path of ["/", "/post", "/my/listings", "/inbox", "/account", "/account/keys"]) {
      titles.add(title((await visit(browser, path)).html));
    }
    expect(titles.size).toBe(6);
    const home = await browser.get("/");
    expect(home.html).toContain('action="/logout"');
    expect(home.html).toContain('href="/inbox"');
    expect(home.html).not.toContain('href="/admin/users"');
  });

  it("shows the admin pages to admins only", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    expect((await browser.get("/admin/users")).status).toBe(403);
    expect((await browser.get("/admin/listings")).status).toBe(403);
    const admin = await h.admin();
    const users = await visit(admin, "/admin/users");
    expect(users.html).toContain("root@example.com");
    expect(users.html).toContain('href="/admin/users"');
    await visit(admin, "/admin/listings");
  });
});

describe("unknown addresses", () => {
  it("answer a browser with an HTML 404 page, and everything under /api with the API's JSON", async () => {
    const h = webHarness();
    const b = h.browser();
    const page = await b.get("/no-such-page");
    expect(page.status).toBe(404);
    expectPageShell(page);
    expect(h1(page.html)).toBe("Page not found");

    const api = await h.app.request("/api/no-such-thing", { headers: { accept: "text/html" } });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: "Not found", code: "not_found" });
    const program = await h.app.request("/nowhere");
    expect(program.status).toBe(404);
    expect(await program.json()).toMatchObject({ code: "not_found" });
    const posted = await h.app.request("/nowhere", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(posted.status).toBe(404);
    expect(await posted.json()).toMatchObject({ code: "not_found" });
    const wrongMethod = await h.app.request("/api/capabilities", { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
  });

  it("an unknown listing is a 404 page", async () => {
    const h = webHarness();
    const page = await h.browser().get("/listings/01900000-0000-7000-8000-000000000000");
    expect(page.status).toBe(404);
    expect(h1(page.html)).toBe("Listing not found");
    expect((await h.browser().get("/listings/not-a-uuid")).status).toBe(404);
  });
});

describe("assets", () => {
  it("serves the one stylesheet and the small script from the site, cached by their versioned URLs", async () => {
    const h = webHarness();
    const home = await h.browser().get("/");
    const links = [...home.html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1] ?? "");
    expect(links).toHaveLength(3);
    for (const link of links) {
      expect(link).toMatch(/\?v=[0-9a-f]{12}$/);
      const res = await h.app.request(link);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toContain("immutable");
      expect(res.headers.get("content-type")).toMatch(/^(text\/(css|javascript)|image\/svg\+xml)/);
    }
    // Nothing on a page is fetched from elsewhere.
    expect(home.html).not.toMatch(/(?:src|href)="https?:/);
  });
});
