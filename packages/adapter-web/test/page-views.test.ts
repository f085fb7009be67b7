import { MarketplaceError } from "@psm/core";
import { describe, expect, it } from "vitest";
import { createPageViews } from "../src/page-views.js";
import { h1, type LogLine, webHarness } from "./harness.js";

/** A write that lands only when the test says so. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** The harness's view writes, each held until `write.open()`. */
function viewsHeld(h: ReturnType<typeof webHarness>) {
  const listings = h.deps.repos.listings;
  const increment = listings.incrementViews.bind(listings);
  const write = gate();
  listings.incrementViews = async (id) => {
    await write.opened;
    return increment(id);
  };
  return { listings, write };
}

const settledYet = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  // Whatever could settle it without the gate has had its turns.
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe("listing pages answered before their views are stored (viewsAfterAnswer)", () => {
  it("answers the page while its view is written, and settle() waits for the write", async () => {
    const h = webHarness({ viewsAfterAnswer: true });
    const { listing } = await h.author("kube@example.com", { title: "Kubernetes audit" });
    const { listings, write } = viewsHeld(h);

    const page = await h.browser().get(`/listings/${listing.id}`);
    expect([page.status, h1(page.html)]).toEqual([200, "Kubernetes audit"]);
    // The page shows the view it counts, which is not stored yet.
    expect(page.html).toContain("1 view");
    expect((await listings.findById(listing.id))?.views).toBe(0);
    const settled = h.settle();
    expect(await settledYet(settled)).toBe(false);

    write.open();
    await settled;
    expect((await listings.findById(listing.id))?.views).toBe(1);
  });

  it("by default a page waits for its view: stored when the page arrives", async () => {
    const h = webHarness();
    const { listing } = await h.author("kube@example.com");
    const { listings, write } = viewsHeld(h);
    const page = h.browser().get(`/listings/${listing.id}`);
    expect(await settledYet(page)).toBe(false);
    write.open();
    expect((await page).status).toBe(200);
    expect((await listings.findById(listing.id))?.views).toBe(1);
  });
});

describe("createPageViews", () => {
  const logs: LogLine[] = [];
  const logger = { error: (obj: object, msg?: string) => logs.push({ level: "error", obj, msg }) };

  it("past maxPending views being written, a page waits for its own", async () => {
    const views = createPageViews({ background: true, maxPending: 2, logger });
    const writes = [gate(), gate(), gate()];
    const answered = writes.map((write) => views.count(() => write.opened));
    expect(await settledYet(answered[0] as Promise<void>)).toBe(true);
    expect(await settledYet(answered[1] as Promise<void>)).toBe(true);
    // Two are being written: the third page is answered only once its own view is stored.
    expect(await settledYet(answered[2] as Promise<void>)).toBe(false);
    writes[2]?.open();
    await answered[2];
    expect(await settledYet(views.settled())).toBe(false);
    writes[0]?.open();
    writes[1]?.open();
    await views.settled();
  });

  it("a view that fails after its page is logged, and one of a listing deleted meanwhile is dropped", async () => {
    logs.length = 0;
    const views = createPageViews({ background: true, logger });
    await views.count(async () => {
      throw new MarketplaceError("listing_not_found");
    });
    await views.count(() => {
      throw new Error("disk full");
    });
    await views.settled();
    expect(logs.map((line) => [line.msg, String((line.obj as { err: unknown }).err)])).toEqual([
      ["a page view was not counted", "Error: disk full"],
    ]);
  });

  it("without background a failed view fails its page, as before", async () => {
    const views = createPageViews({ background: false, logger });
    await expect(views.count(async () => Promise.reject(new Error("disk full")))).rejects.toThrow(
      "disk full",
    );
  });
});
