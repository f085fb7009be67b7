import { describe, expect, test } from "vitest";
import { entityTag, noneMatch, PRIVATE_CACHE, PUBLIC_CACHE } from "../src/conditional.js";
import { harness } from "./helpers.js";

const STRONG_TAG = /^"[A-Za-z0-9_-]{22}"$/;

describe("conditional GETs", () => {
  test.each(["/api/listings", "/api/profiles"])(
    "%s: a strong ETag, public caching and Vary for anonymous callers",
    async (path) => {
      const h = harness();
      const s = await h.signUp();
      await h.listing(s);
      const res = await h.call("GET", path);
      expect(res.status).toBe(200);
      const tag = res.headers.get("ETag");
      expect(tag).toMatch(STRONG_TAG);
      expect(tag).toBe(entityTag(await res.text()));
      expect(res.headers.get("Cache-Control")).toBe(PUBLIC_CACHE);
      expect(res.headers.get("Vary")).toContain("Authorization");
      expect(res.headers.get("Vary")).toContain("X-API-Key");
    },
  );

  test("If-None-Match with the current tag is 304 without a body; any other tag is 200", async () => {
    const h = harness();
    const s = await h.signUp();
    const listing = await h.listing(s);
    const path = `/api/listings/${String(listing.id)}`;
    const first = await h.call("GET", path);
    const tag = first.headers.get("ETag") ?? "";
    for (const header of [tag, `W/${tag}`, `"other", ${tag}`, "*"]) {
      const again = await h.call("GET", path, { headers: { "If-None-Match": header } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("ETag")).toBe(tag);
      expect(again.headers.get("Cache-Control")).toBe(PUBLIC_CACHE);
    }
    const other = await h.call("GET", path, { headers: { "If-None-Match": '"stale"' } });
    expect(other.status).toBe(200);
  });

  test("a view, an edit and a new listing change the tags (read your writes)", async () => {
    const h = harness();
    const s = await h.signUp();
    const listing = await h.listing(s);
    const path = `/api/listings/${String(listing.id)}`;
    const tagOf = async (p: string) => (await h.call("GET", p)).headers.get("ETag");
    const one = await tagOf(path);
    const page = await tagOf("/api/listings");
    expect(await tagOf(path)).toBe(one);

    expect((await h.call("POST", `${path}/view`)).status).toBe(200);
    const viewed = await tagOf(path);
    expect(viewed).not.toBe(one);
    const stale = await h.call("GET", path, { headers: { "If-None-Match": one ?? "" } });
    expect(stale.status).toBe(200);
    expect((await h.json<{ listing: { views: number } }>(stale)).listing.views).toBe(1);

    await h.call("PATCH", path, { token: s.token, body: { price: 99 } });
    expect(await tagOf(path)).not.toBe(viewed);
    await h.listing(s);
    expect(await tagOf("/api/listings")).not.toBe(page);
  });

  test("a signed-in caller's answer is never shared-cacheable; private profiles stay no-store", async () => {
    const h = harness();
    const s = await h.signUp();
    await h.listing(s);
    const mine = await h.call("GET", "/api/listings", { token: s.token });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("Cache-Control")).toBe(PRIVATE_CACHE);
    const tag = mine.headers.get("ETag") ?? "";
    const revalidated = await h.call("GET", "/api/listings", {
      token: s.token,
      headers: { "If-None-Match": tag },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("Cache-Control")).toBe(PRIVATE_CACHE);

    const profiles = await h.call("GET", "/api/profiles", { token: s.token });
    expect(profiles.headers.get("Cache-Control")).toBe("no-store");
    expect(profiles.headers.get("ETag")).toMatch(STRONG_TAG);
    const legacy = harness("legacy");
    await legacy.signUp();
    const anonymous = await legacy.call("GET", "/api/profiles");
    expect(anonymous.headers.get("Cache-Control")).toBe("no-store");
  });

  test("errors and other routes carry no ETag", async () => {
    const h = harness();
    const missing = await h.call("GET", "/api/listings/00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("ETag")).toBeNull();
    const s = await h.signUp();
    const messages = await h.call("GET", "/api/messages", { token: s.token });
    expect(messages.headers.get("ETag")).toBeNull();
  });
});

describe("noneMatch", () => {
  test("weak comparison over a list; absent never matches", () => {
    expect(noneMatch(undefined, '"a"')).toBe(false);
    expect(noneMatch('"b", W/"a"', '"a"')).toBe(true);
    expect(noneMatch('"ab"', '"a"')).toBe(false);
    expect(noneMatch(" * ", '"a"')).toBe(true);
  });
});
