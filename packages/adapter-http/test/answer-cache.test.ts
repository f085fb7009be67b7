import {
  type AnswerCacheOptions,
  createAnswerCache,
  type EncodedAnswer,
  expiryOf,
  type ReadAnswer,
} from "@psm/host";
import { afterEach, describe, expect, test, vi } from "vitest";
import { harness } from "./helpers.js";

interface Page {
  items: { id: string; title: string; views: number }[];
  next_cursor: string | null;
}

/**
 * A write made by another process on the same database: straight into the
 * storage, past this process's watched repositories (whose revision does not move).
 */
async function retitleBehindTheCache(h: ReturnType<typeof harness>, id: string, title: string) {
  const stored = await h.deps.repos.listings.findById(id);
  if (stored === null) throw new Error("no such listing");
  await h.deps.repos.listings.update(id, { title }, { maxSlots: 100, now: h.deps.clock.now() });
}

describe("answer cache of anonymous listing reads", () => {
  test("an anonymous page is reused until max age, then read again", async () => {
    const h = harness("strict", { answerCacheMs: 1000 });
    const s = await h.signUp();
    const listing = await h.listing(s, { title: "Before" });
    const first = await h.json<Page>(await h.call("GET", "/api/listings"));
    expect(first.items[0]?.title).toBe("Before");
    // Read once, an answer is only noted; read again, it is kept.
    await h.call("GET", "/api/listings");

    await retitleBehindTheCache(h, String(listing.id), "After");
    const cached = await h.call("GET", "/api/listings");
    expect((await h.json<Page>(cached)).items[0]?.title).toBe("Before");
    // A signed-in caller never gets the kept copy.
    const signedIn = await h.json<Page>(await h.call("GET", "/api/listings", { token: s.token }));
    expect(signedIn.items[0]?.title).toBe("After");

    h.deps.clock.advance(1000);
    const fresh = await h.json<Page>(await h.call("GET", "/api/listings"));
    expect(fresh.items[0]?.title).toBe("After");
  });

  test("a write through this process shows at once: create, edit, view, delete", async () => {
    const h = harness("strict", { answerCacheMs: 5000 });
    const s = await h.signUp();
    const one = await h.listing(s, { title: "One" });
    const path = `/api/listings/${String(one.id)}`;
    const titles = async () =>
      (await h.json<Page>(await h.call("GET", "/api/listings"))).items.map((i) => i.title);
    const views = async () =>
      (await h.json<{ listing: { views: number } }>(await h.call("GET", path))).listing.views;
    // Each read twice: an answer is kept from its key's second read.
    for (let i = 0; i < 2; i++) {
      expect(await titles()).toEqual(["One"]);
      expect(await views()).toBe(0);
    }

    await h.listing(s, { title: "Two" });
    expect(await titles()).toEqual(["Two", "One"]);
    await h.call("PATCH", path, { token: s.token, body: { title: "Uno" } });
    expect(await titles()).toEqual(["Two", "Uno"]);
    await h.call("POST", `${path}/view`);
    expect(await views()).toBe(1);
    await h.call("DELETE", path, { token: s.token });
    expect(await titles()).toEqual(["Two"]);
    expect((await h.call("GET", path)).status).toBe(404);
  });

  test("a view keeps pages and other listings cached; only the viewed listing's answer is read again", async () => {
    const h = harness("strict", { answerCacheMs: 5000 });
    const s = await h.signUp();
    const viewed = await h.listing(s, { title: "Viewed" });
    const other = await h.listing(s, { title: "Other" });
    const listings = h.deps.repos.listings;
    const counted = { search: 0, findById: 0 };
    const search = listings.search.bind(listings);
    const findById = listings.findById.bind(listings);
    listings.search = (...args) => {
      counted.search += 1;
      return search(...args);
    };
    listings.findById = (id) => {
      counted.findById += 1;
      return findById(id);
    };
    const viewedPath = `/api/listings/${String(viewed.id)}`;
    const otherPath = `/api/listings/${String(other.id)}`;
    const viewsOf = async (path: string) =>
      (await h.json<{ listing: { views: number } }>(await h.call("GET", path))).listing.views;
    const page = async () => (await h.json<Page>(await h.call("GET", "/api/listings"))).items;
    // Each read twice: the second read's answer is kept.
    for (let i = 0; i < 2; i++) {
      await page();
      await viewsOf(viewedPath);
      await viewsOf(otherPath);
    }
    const before = { ...counted };

    for (let i = 0; i < 5; i++) await h.call("POST", `${viewedPath}/view`);
    // The page answer is kept: it may show the count as it was, for at most its max age.
    expect((await page()).find((item) => item.id === viewed.id)?.views).toBe(0);
    expect(await viewsOf(otherPath)).toBe(0);
    expect(counted.search).toBe(before.search);
    // The viewed listing's own answer shows every view at once.
    expect(await viewsOf(viewedPath)).toBe(5);
    expect(counted.findById).toBe(before.findById + 1);

    h.deps.clock.advance(5000);
    expect((await page()).find((item) => item.id === viewed.id)?.views).toBe(5);
  });

  test("an answer is not reused past the expiry of a listing it shows", async () => {
    const h = harness("strict", { answerCacheMs: 5000 });
    const s = await h.signUp();
    const expiresAt = new Date(h.deps.clock.now().getTime() + 2000).toISOString();
    const listing = await h.listing(s, { title: "Short-lived", expires_at: expiresAt });
    const path = `/api/listings/${String(listing.id)}`;
    for (let i = 0; i < 2; i++) {
      expect((await h.json<Page>(await h.call("GET", "/api/listings"))).items).toHaveLength(1);
      expect((await h.json<{ listing: { status: string } }>(await h.call("GET", path))).listing.status).toBe(
        "active",
      );
    }

    h.deps.clock.advance(2000);
    expect((await h.json<Page>(await h.call("GET", "/api/listings"))).items).toHaveLength(0);
    expect((await h.json<{ listing: { status: string } }>(await h.call("GET", path))).listing.status).toBe(
      "expired",
    );
  });

  test("a kept answer still honours If-None-Match and carries the same tag and headers", async () => {
    const h = harness("strict", { answerCacheMs: 5000 });
    const s = await h.signUp();
    await h.listing(s);
    const first = await h.call("GET", "/api/listings");
    await h.call("GET", "/api/listings"); // the key's second read: its answer is kept
    const again = await h.call("GET", "/api/listings");
    const tag = first.headers.get("ETag") ?? "";
    expect(again.headers.get("ETag")).toBe(tag);
    expect(again.headers.get("Cache-Control")).toBe(first.headers.get("Cache-Control"));
    expect(again.headers.get("Content-Type")).toBe("application/json");
    expect(await again.text()).toBe(await first.text());
    const revalidated = await h.call("GET", "/api/listings", { headers: { "If-None-Match": tag } });
    expect(revalidated.status).toBe(304);
  });

  test("concurrent anonymous reads of one answer share one storage read", async () => {
    const h = harness("strict", { answerCacheMs: 1000 });
    const s = await h.signUp();
    const listing = await h.listing(s, { title: "Hot" });
    const listings = h.deps.repos.listings;
    const original = listings.findById.bind(listings);
    let reads = 0;
    listings.findById = (id) => {
      reads += 1;
      return original(id);
    };
    const path = `/api/listings/${String(listing.id)}`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => h.call("GET", path)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.headers.get("ETag"))).size).toBe(1);
    expect(reads).toBe(1);
  });

  test("without a listing revision (an embedder that composes no watch) every read goes to storage", async () => {
    const h = harness("strict", { answerCacheMs: 5000, listingRevision: undefined });
    const s = await h.signUp();
    const listing = await h.listing(s, { title: "Before" });
    await h.call("GET", "/api/listings");
    await h.call("GET", "/api/listings");
    await h.call("PATCH", `/api/listings/${String(listing.id)}`, {
      token: s.token,
      body: { title: "After" },
    });
    expect((await h.json<Page>(await h.call("GET", "/api/listings"))).items[0]?.title).toBe("After");
  });

  test("ANSWER_CACHE_MS=0 reads every time", async () => {
    const h = harness("strict", { answerCacheMs: 0 });
    const s = await h.signUp();
    const listing = await h.listing(s, { title: "Before" });
    await h.call("GET", "/api/listings");
    await h.call("GET", "/api/listings");
    await retitleBehindTheCache(h, String(listing.id), "After");
    expect((await h.json<Page>(await h.call("GET", "/api/listings"))).items[0]?.title).toBe("After");
  });
});

describe("createAnswerCache", () => {
  function fakeMarket() {
    const state = { revision: 0, now: 0 };
    const m = { now: () => new Date(state.now) };
    const revision = { current: () => state.revision };
    // The cache over `m`, watching `revision`.
    const cacheOf = (options: Omit<AnswerCacheOptions, "revision">) =>
      createAnswerCache(m, { ...options, revision });
    return { m, state, revision, cacheOf };
  }
  const answer = (text: string): EncodedAnswer => ({ bytes: Buffer.from(text), tag: `"${text}"` });

  test("an answer read before a write is never kept", () => {
    const { state, revision, cacheOf } = fakeMarket();
    const cache = cacheOf({ maxAgeMs: 1000 });
    const readAt = revision.current();
    state.revision += 1; // a write committed while the read ran
    cache?.put("k", readAt, answer("old"), {});
    expect(cache?.get("k")).toBeUndefined();
  });

  test("a write drops every kept answer", () => {
    const { state, cacheOf } = fakeMarket();
    const cache = cacheOf({ maxAgeMs: 1000 });
    cache?.put("a", 0, answer("a"), {});
    cache?.put("b", 0, answer("b"), {});
    expect(cache?.get("a")?.tag).toBe('"a"');
    state.revision += 1;
    expect(cache?.get("a")).toBeUndefined();
    expect(cache?.get("b")).toBeUndefined();
  });

  test("bounded in entries and bytes, least recently used first", () => {
    const { cacheOf } = fakeMarket();
    const cache = cacheOf({ maxAgeMs: 1000, maxEntries: 2 });
    cache?.put("a", 0, answer("a"), {});
    cache?.put("b", 0, answer("b"), {});
    cache?.get("a");
    cache?.put("c", 0, answer("c"), {});
    expect(cache?.get("b")).toBeUndefined();
    expect(cache?.get("a")).toBeDefined();
    expect(cache?.get("c")).toBeDefined();

    const small = cacheOf({ maxAgeMs: 1000, maxBytes: 1000 });
    small?.put("big", 0, answer("x".repeat(2000)), {});
    expect(small?.get("big")).toBeUndefined();
    small?.put("one", 0, answer("y".repeat(480)), {});
    small?.put("two", 0, answer("z".repeat(480)), {});
    expect(small?.get("one")).toBeUndefined();
    expect(small?.get("two")).toBeDefined();
  });

  describe("answers past their age are let go without a request for them", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    test("an idle cache holds nothing a maximum age after its answers aged", () => {
      vi.useFakeTimers();
      const { state, cacheOf } = fakeMarket();
      const cache = cacheOf({ maxAgeMs: 1000 });
      cache?.put("a", 0, answer("a".repeat(500)), {});
      state.now = 600;
      cache?.put("b", 0, answer("b".repeat(500)), {});
      expect(cache?.held().entries).toBe(2);

      // At 1,000 ms "a" has aged and goes; "b" (until 1,600 ms) stays until the next sweep.
      state.now = 1000;
      vi.advanceTimersByTime(1000);
      expect(cache?.held().entries).toBe(1);
      expect(cache?.get("b")?.tag).toBe(`"${"b".repeat(500)}"`);

      state.now = 2000;
      vi.advanceTimersByTime(1000);
      expect(cache?.held()).toEqual({ entries: 0, bytes: 0 });
      // Nothing kept, nothing scheduled: no timer is left to keep running.
      expect(vi.getTimerCount()).toBe(0);
    });

    test("answers read before a write go at the next sweep, whatever their age", () => {
      vi.useFakeTimers();
      const { state, cacheOf } = fakeMarket();
      const cache = cacheOf({ maxAgeMs: 5000 });
      cache?.put("a", 0, answer("a"), {});
      state.revision += 1;
      state.now = 10;
      vi.advanceTimersByTime(5000);
      expect(cache?.held()).toEqual({ entries: 0, bytes: 0 });
    });

    test("the sweep keeps no process alive", () => {
      const { cacheOf } = fakeMarket();
      const cache = cacheOf({ maxAgeMs: 1000 });
      const timers: { hasRef(): boolean }[] = [];
      const setTimer = globalThis.setTimeout;
      const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((
        ...args: Parameters<typeof setTimer>
      ) => {
        const timer = setTimer(...args);
        timers.push(timer);
        return timer;
      }) as typeof setTimeout);
      try {
        cache?.put("a", 0, answer("a"), {});
      } finally {
        spy.mockRestore();
      }
      expect(timers).toHaveLength(1);
      expect(timers[0]?.hasRef()).toBe(false);
      clearTimeout(timers[0] as Parameters<typeof clearTimeout>[0]);
    });
  });

  /**
   * A cache over reads that resolve when told to: `settle` answers the reads asked for since the
   * last settle, in order, one text each, after checking that exactly that many were asked for.
   */
  function cacheWithDeferredReads() {
    const { state, cacheOf } = fakeMarket();
    const cache = cacheOf({ maxAgeMs: 1000 });
    const pending: ((text: string) => void)[] = [];
    const read = () =>
      new Promise<ReadAnswer>((done) => {
        pending.push((text) => done({ answer: answer(text), body: {} }));
      });
    const settle = (...texts: string[]) => {
      const asked = pending.splice(0);
      expect(asked).toHaveLength(texts.length);
      for (const [i, text] of texts.entries()) asked[i]?.(text);
    };
    return { state, cache, read, settle };
  }

  /** The tags the requests ended with, in order. */
  const tagsOf = async (...requests: (Promise<EncodedAnswer> | undefined)[]) =>
    (await Promise.all(requests)).map((answer) => answer?.tag);

  test("requests for an answer being read share that read, which is kept from the key's second read", async () => {
    const { cache, read, settle } = cacheWithDeferredReads();
    const first = cache?.read("k", read);
    const second = cache?.read("k", read);
    const other = cache?.read("other", read);
    settle("k1", "o1");
    expect(await tagsOf(first, second, other)).toEqual(['"k1"', '"k1"', '"o1"']);
    // The key's first read only noted it.
    expect(cache?.get("k")).toBeUndefined();
    const again = [cache?.read("k", read), cache?.read("k", read)];
    settle("k2");
    expect(await tagsOf(...again)).toEqual(['"k2"', '"k2"']);
    expect(cache?.get("k")?.tag).toBe('"k2"');
  });

  test("answers read once never push out those read again", async () => {
    const { cacheOf } = fakeMarket();
    const cache = cacheOf({ maxAgeMs: 1000, maxEntries: 2 });
    const reads = new Map<string, number>();
    const read = (key: string) =>
      cache?.read(key, async () => {
        reads.set(key, (reads.get(key) ?? 0) + 1);
        return { answer: answer(key), body: {} };
      });
    await read("hot");
    await read("hot");
    for (let i = 0; i < 20; i++) await read(`once-${i}`);
    expect(cache?.held().entries).toBe(1);
    expect(cache?.get("hot")?.tag).toBe('"hot"');
    expect(reads.get("hot")).toBe(2);
  });

  test("a key read before a write is kept at its first read after it", async () => {
    const { state, cacheOf } = fakeMarket();
    const cache = cacheOf({ maxAgeMs: 1000 });
    const read = (text: string) => async () => ({ answer: answer(text), body: {} });
    await cache?.read("k", read("before"));
    state.revision += 1;
    await cache?.read("k", read("after"));
    expect(cache?.get("k")?.tag).toBe('"after"');
  });

  test("a request that arrives after a write settled reads on its own, and sees it", async () => {
    const { state, cache, read, settle } = cacheWithDeferredReads();
    const before = cache?.read("k", read);
    state.revision += 1; // a write settled while the first read ran
    const after = cache?.read("k", read);
    settle("old", "new");
    expect(await tagsOf(before, after)).toEqual(['"old"', '"new"']);
    // The read that began before the write is not kept; the later one is.
    expect(cache?.get("k")?.tag).toBe('"new"');
  });

  test("a failed read fails every request that shared it, and the next request reads again", async () => {
    const { cacheOf } = fakeMarket();
    const cache = cacheOf({ maxAgeMs: 1000 });
    let calls = 0;
    const failing = async (): Promise<ReadAnswer> => {
      calls += 1;
      await Promise.resolve();
      throw new Error("storage down");
    };
    const shared = [cache?.read("k", failing), cache?.read("k", failing)];
    for (const request of shared) await expect(request).rejects.toThrow("storage down");
    expect(calls).toBe(1);
    expect(cache?.get("k")).toBeUndefined();
    await expect(cache?.read("k", async () => ({ answer: answer("back"), body: {} }))).resolves.toMatchObject(
      {
        tag: '"back"',
      },
    );
  });

  test("an answer with a status is shared with the requests reading it, and never kept", async () => {
    const { cache, read, settle } = cacheWithDeferredReads();
    const refused = async () => ({ ...(await read()), answer: { ...answer("400"), status: 400 } });
    const first = cache?.read("k", refused);
    const second = cache?.read("k", refused);
    settle("ignored");
    expect((await Promise.all([first, second])).map((a) => a?.status)).toEqual([400, 400]);
    expect(cache?.get("k")).toBeUndefined();
  });

  test("agedViews: views settled during or after the read neither keep the answer out nor drop it", async () => {
    const { m, state } = fakeMarket();
    const views = { all: 0, marks: new Map<string, number>() };
    const revision = {
      current: () => state.revision,
      views: (id?: string) => (id === undefined ? views.all : (views.marks.get(id) ?? 0)),
    };
    const view = (id: string) => {
      views.all += 1;
      views.marks.set(id, (views.marks.get(id) ?? 0) + 1);
    };
    const cache = createAnswerCache(m, { maxAgeMs: 1000, revision });
    const page = { listing: { id: "L" } };
    let reads = 0;
    const reading = (text: string) => async (): Promise<ReadAnswer> => {
      reads += 1;
      const during = Promise.resolve();
      view("L"); // a view settles while the page is read
      await during;
      return { answer: answer(text), body: page };
    };
    // Each key read once already, so that its next answer may be kept.
    for (const key of ["plain", "aged"])
      await cache?.read(key, async () => ({ answer: answer("first"), body: {} }));
    // Without agedViews: kept out (a view settled during the read).
    await cache?.read("plain", reading("p"));
    expect(cache?.get("plain")).toBeUndefined();
    // With it: kept, shared by a request that arrives after a view, and not dropped by later views.
    const first = cache?.read("aged", reading("a1"), { agedViews: true });
    view("L");
    const second = cache?.read("aged", reading("a2"), { agedViews: true });
    expect(await tagsOf(first, second)).toEqual(['"a1"', '"a1"']);
    view("L");
    expect(cache?.get("aged")?.tag).toBe('"a1"');
    expect(reads).toBe(2);
    // A write still ends it.
    state.revision += 1;
    expect(cache?.get("aged")).toBeUndefined();
  });

  test("off when the max age is 0, or without a listing revision to learn of writes from", () => {
    expect(fakeMarket().cacheOf({ maxAgeMs: 0 })).toBeUndefined();
    expect(createAnswerCache(fakeMarket().m, { maxAgeMs: 1000 })).toBeUndefined();
  });

  test("expiryOf: the earliest future expires_at of a page or a listing", () => {
    const at = (ms: number) => new Date(ms).toISOString();
    const page = { items: [{ expires_at: at(5000) }, { expires_at: null }, { expires_at: at(3000) }] };
    expect(expiryOf(page, 1000)).toBe(3000);
    expect(expiryOf(page, 4000)).toBe(5000);
    expect(expiryOf({ listing: { expires_at: at(500) } }, 1000)).toBe(Number.POSITIVE_INFINITY);
    expect(expiryOf({ listing: { expires_at: at(1500) } }, 1000)).toBe(1500);
  });
});
