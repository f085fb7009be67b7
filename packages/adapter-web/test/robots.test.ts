import { describe, expect, it } from "vitest";
import { webHarness } from "./harness.js";

/** A robots.txt group's rules, as RFC 9309 reads them: the longest matching path wins, Allow on a tie. */
function allowed(robots: string, path: string): boolean {
  const rules = robots
    .split("\n")
    .map((line) => /^(Allow|Disallow):\s*(\S*)$/i.exec(line.trim()))
    .filter((m) => m !== null)
    .map((m) => ({ allow: m[1]?.toLowerCase() === "allow", path: m[2] ?? "" }));
  const matches = (pattern: string) =>
    new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}`).test(path);
  const best = rules
    .filter((r) => r.path !== "" && matches(r.path))
    .sort((a, b) => b.path.length - a.path.length || Number(b.allow) - Number(a.allow))[0];
  return best?.allow ?? true;
}

const LISTING = "/listings/01900000-0000-7000-8000-000000000000";

describe("GET /robots.txt", () => {
  it("is plain text for everyone, cached for a day, sets no cookie and points nowhere else", async () => {
    const h = webHarness();
    for (const accept of ["text/plain", "text/html", "*/*"]) {
      const res = await h.app.request("/robots.txt", { headers: { accept } });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; charset=utf-8$/i);
      expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
      expect(res.headers.get("set-cookie")).toBeNull();
      const text = await res.text();
      expect(text.split("\n")[0]).toBe("User-agent: *");
      expect(text).not.toMatch(/https?:|sitemap/i);
    }
    expect((await h.app.request("/robots.txt", { method: "HEAD" })).status).toBe(200);
  });

  it("allows the public pages and disallows private pages, mailed links, form targets and the API", async () => {
    const h = webHarness();
    const robots = await (await h.app.request("/robots.txt")).text();
    for (const path of [
      "/",
      "/?q=audit&category=cybersecurity",
      LISTING,
      "/login",
      "/signup",
      "/forgot-password",
      "/assets/site.css",
      "/favicon.ico",
      "/llms.txt",
    ]) {
      expect(allowed(robots, path), path).toBe(true);
    }
    for (const path of [
      "/account",
      "/account/keys",
      "/admin/users",
      "/admin/listings",
      "/inbox",
      "/my/listings",
      "/post",
      "/post/document",
      "/logout",
      `${LISTING}/messages`,
      "/reset-password?token=abc",
      "/verify-email?token=abc",
      "/api/listings",
    ]) {
      expect(allowed(robots, path), path).toBe(false);
    }
  });

  it("disallows every page a signed-out visitor is sent to log in from", async () => {
    const h = webHarness();
    const robots = await (await h.app.request("/robots.txt")).text();
    const b = h.browser();
    for (const path of ["/post", "/my/listings", "/inbox", "/account", "/account/keys", "/admin/users"]) {
      expect((await b.get(path)).location, path).toMatch(/^\/login\?next=/);
      expect(allowed(robots, path), path).toBe(false);
    }
  });
});
