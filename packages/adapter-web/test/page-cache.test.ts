import type { AnswerCacheOutcome } from "@psm/adapter-http";
import { describe, expect, it } from "vitest";
import { h1, webHarness } from "./harness.js";

/**
 * A write made by another process on the same database: straight into the storage, past this
 * process's watched repositories (whose revision does not move).
 */
async function retitleBehindTheCache(h: ReturnType<typeof webHarness>, id: string, title: string) {
  await h.deps.repos.listings.update(id, { title }, { maxSlots: 100, now: h.deps.clock.now() });
}

function counting() {
  const seen: AnswerCacheOutcome[] = [];
  return { seen, onLookup: (outcome: AnswerCacheOutcome) => seen.push(outcome) };
}

describe("pages kept for visitors who are not signed in", () => {
  it("browse and search pages are kept until their max age, and a write through this process ends them", async () => {
    const h = webHarness({ answerCache: { maxAgeMs: 1000 } });
    const { listing } = await h.author("kube@example.com", { title: "Kubernetes audit" });
    const visitor = h.browser();
    // Each read twice: a page is kept from its second read.
    for (const path of ["/", "/?q=kubernetes", "/", "/?q=kubernetes"]) {
      expect((await visitor.get(path)).html, path).toContain("Kubernetes audit");
    }
    await retitleBehindTheCache(h, listing.id, "Cluster review");
    // Another visitor gets the kept page: the write behind the cache is not seen yet.
    for (const path of ["/", "/?q=kubernetes"]) {
      const kept = await h.browser().get(path);
      expect([kept.status, kept.html.includes("Kubernetes audit")], path).toEqual([200, true]);
    }
    h.deps.clock.advance(1000);
    expect((await visitor.get("/")).html).toContain("Cluster review");

    // A write through this process shows at once, to everyone.
    await h.author("brand@example.com", { title: "Brand design", category: "ux-ui-design" });
    expect((await visitor.get("/")).html).toContain("Brand design");
  });

  it("a signed-in visitor never gets the kept page, and the anonymous page holds nothing of theirs", async () => {
    const h = webHarness({ answerCache: { maxAgeMs: 5000 } });
    const member = await h.author("kube@example.com", { title: "Kubernetes audit" });
    const anonymous = await h.browser().get("/?q=kubernetes");
    expect(anonymous.html).toContain("Log in to save this search");
    await h.browser().get("/?q=kubernetes"); // read again: kept
    await retitleBehindTheCache(h, member.listing.id, "Cluster review");

    const mine = await member.browser.get("/?q=cluster");
    expect(mine.html).toContain("Cluster review");
    const same = await member.browser.get("/?q=kubernetes");
    // Their own page: the save form with their token, their name in the header, today's titles.
    expect(same.html).toContain("Save this search");
    expect(same.html).not.toContain("Kubernetes audit");
    // And the kept page was never given their form token.
    expect((await h.browser().get("/?q=kubernetes")).html).not.toContain('name="_csrf"');
  });

  it("a kept page carries the page headers and, having no form, sets no cookie", async () => {
    const h = webHarness({ answerCache: { maxAgeMs: 5000 } });
    await h.author("kube@example.com", { title: "Kubernetes audit" });
    const first = h.browser();
    await first.get("/");
    await first.get("/"); // read again: kept
    const second = h.browser();
    const kept = await second.get("/");
    expect(kept.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(kept.headers.get("cache-control")).toBe("no-store");
    expect(kept.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(kept.headers.getSetCookie()).toEqual([]);
    expect(first.cookies.size).toBe(0);
    // A page with a form binds its visitor then.
    await second.get("/login");
    expect(second.cookies.get("psm_csrf")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A visitor with a notice waiting gets their own page, notice shown, and the next one kept.
    const member = await h.signedIn("member@example.com");
    const loggedOut = await member.browser.follow(
      await member.browser.submit(await member.browser.get("/"), "/logout"),
    );
    expect(loggedOut.html).toMatch(/signed out|logged out/i);
    expect((await member.browser.get("/")).html).not.toMatch(/signed out|logged out/i);
  });

  it("a refused search (400) is shared but never kept", async () => {
    const count = counting();
    const h = webHarness({ answerCache: { maxAgeMs: 5000, onLookup: count.onLookup } });
    const bad = "/?category=no-such-category";
    expect((await h.browser().get(bad)).status).toBe(400);
    expect((await h.browser().get(bad)).status).toBe(400);
    expect(count.seen).toEqual(["miss", "miss"]);
    for (let i = 0; i < 3; i++) await h.browser().get("/");
    // Noted at its first read, kept at its second.
    expect(count.seen.slice(2)).toEqual(["miss", "miss", "hit"]);
  });

  it("a listing page counts every view while kept, showing a count up to the max age old", async () => {
    const count = counting();
    const h = webHarness({ answerCache: { maxAgeMs: 1000, onLookup: count.onLookup } });
    const { listing, browser: author } = await h.author("kube@example.com", { title: "Kubernetes audit" });
    const path = `/listings/${listing.id}`;
    const first = await h.browser().get(path);
    expect(h1(first.html)).toBe("Kubernetes audit");
    expect(first.html).toContain("1 view");
    // Read again, the page is kept as that read rendered it.
    expect((await h.browser().get(path)).html).toContain("2 views");
    for (let i = 0; i < 3; i++) {
      const kept = await h.browser().get(path);
      expect(kept.status).toBe(200);
      expect(kept.html).toContain("2 views");
    }
    expect(count.seen).toEqual(["miss", "miss", "hit", "hit", "hit"]);
    expect((await h.m.listings.get({ id: listing.id })).views).toBe(5);
    // A HEAD shows nothing and counts nothing; the author's own page is theirs and counts nothing.
    expect((await h.app.request(`http://localhost:3000${path}`, { method: "HEAD" })).status).toBe(200);
    expect((await author.get(path)).html).toContain("5 views");
    expect((await h.m.listings.get({ id: listing.id })).views).toBe(5);

    h.deps.clock.advance(1000);
    expect((await h.browser().get(path)).html).toContain("6 views");
    expect((await h.m.listings.get({ id: listing.id })).views).toBe(6);
  });

  it("an unknown or malformed listing is a 404 page that counts nothing", async () => {
    const h = webHarness({ answerCache: { maxAgeMs: 5000 } });
    for (const path of ["/listings/not-a-uuid", `/listings/${crypto.randomUUID()}`]) {
      expect((await h.browser().get(path)).status, path).toBe(404);
      expect((await h.browser().get(path)).status, path).toBe(404);
    }
  });

  it("a listing paused or deleted through this process leaves the kept pages at once", async () => {
    const h = webHarness({ answerCache: { maxAgeMs: 5000 } });
    const { listing, actor } = await h.author("kube@example.com", { title: "Kubernetes audit" });
    for (let i = 0; i < 2; i++) {
      expect((await h.browser().get("/")).html).toContain("Kubernetes audit");
      expect((await h.browser().get(`/listings/${listing.id}`)).status).toBe(200);
    }
    await h.m.listings.update(actor, { id: listing.id, status: "paused" });
    expect((await h.browser().get("/")).html).not.toContain("Kubernetes audit");
    await h.m.listings.delete(actor, { id: listing.id });
    expect((await h.browser().get(`/listings/${listing.id}`)).status).toBe(404);
  });
});
