import { ANONYMOUS } from "@psm/core";
import { describe, expect, it } from "vitest";
import { formToken, h1, ORIGIN, type Page, uploadAction, webHarness } from "./harness.js";

const FIELDS = {
  title: "Kubernetes audit",
  description: "A two-week review of your clusters.",
  category: "cybersecurity",
  price: "4800",
  condition: "",
  contact_email: "",
  expires_at: "",
  images: "",
};

/** The id of the listing a redirect points at. */
function listingIdOf(page: Page): string {
  const id = /^\/listings\/([0-9a-f-]{36})$/.exec(page.location ?? "")?.[1];
  if (!id) throw new Error(`not a listing redirect: ${page.status} ${page.location}`);
  return id;
}

describe("posting a listing", () => {
  it("publishes, redirects to the listing (PRG) and tells so once", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const form = await browser.get("/post");
    expect(form.html).toContain("You are using 0 of 5 listings.");
    const done = await browser.submit(form, "/post", FIELDS);
    const id = listingIdOf(done);
    const shown = await browser.follow(done);
    expect(h1(shown.html)).toBe("Kubernetes audit");
    expect(shown.html).toContain("Your listing is published.");
    expect(shown.html).toContain("4,800");
    // The notice is shown once; reloading repeats nothing.
    const reload = await browser.get(`/listings/${id}`);
    expect(reload.html).not.toContain("Your listing is published.");
    expect((await h.m.listings.search(ANONYMOUS, {})).items).toHaveLength(1);
  });

  it("a form sent twice (double click, resend) creates one listing, and both answers redirect to it", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const form = await browser.get("/post");
    const [first, second] = await Promise.all([
      browser.submit(form, "/post", FIELDS),
      browser.submit(form, "/post", FIELDS),
    ]);
    const third = await browser.submit(form, "/post", FIELDS);
    expect(listingIdOf(first)).toBe(listingIdOf(second));
    expect(listingIdOf(third)).toBe(listingIdOf(first));
    expect((await h.m.listings.search(ANONYMOUS, {})).items).toHaveLength(1);
    // A fresh form is a new listing.
    const again = await browser.submit(await browser.get("/post"), "/post", FIELDS);
    expect(listingIdOf(again)).not.toBe(listingIdOf(first));
  });

  it("shows every problem beside its field, tied by aria-describedby, and in a summary at the top", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const form = await browser.get("/post");
    const page = await browser.submit(form, "/post", {
      ...FIELDS,
      title: "",
      category: "",
      price: "lots",
      contact_email: "not-an-email",
    });
    expect(page.status).toBe(400);
    const summary = /<div class="error-summary"[^>]*>([\s\S]*?)<\/div>/.exec(page.html)?.[1] ?? "";
    expect(summary).toContain('href="#title"');
    expect(summary).toContain('href="#category"');
    expect(summary).toContain('href="#price"');
    expect(summary).toContain('href="#contact_email"');
    expect(page.html.indexOf("error-summary")).toBeLessThan(page.html.indexOf("<h1"));
    for (const field of ["title", "category", "price", "contact_email"]) {
      expect(page.html).toMatch(new RegExp(`id="${field}-error"`));
      expect(page.html).toMatch(new RegExp(`id="${field}"[^>]*aria-describedby="[^"]*${field}-error`));
      expect(page.html).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"`));
    }
    expect(page.html).toContain("Title must not be empty");
    // What was typed is kept.
    expect(page.html).toContain("A two-week review of your clusters.");
    // The corrected form goes through (a refusal is not kept against its key).
    const fixed = await browser.submit(page, "/post", FIELDS);
    expect(fixed.status).toBe(303);
  });

  it("shows the slots in use, and says clearly when they are full", async () => {
    const h = webHarness({ slots: { personal: 1, business: 5, admin: 10 } });
    const { browser } = await h.signedIn();
    await browser.submit(await browser.get("/post"), "/post", FIELDS);
    const full = await browser.get("/post");
    expect(full.html).toContain("You are using 1 of 1 listings.");
    expect(full.html).toContain("All your listing slots are in use");
    expect(full.html).not.toContain('action="/post"');
  });

  it("pre-fills the form from an uploaded document, for review", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const form = await browser.get("/post");
    const body = new FormData();
    body.set(
      "document",
      new File(["Data platform audit\nA two-week review."], "offer.txt", { type: "text/plain" }),
    );
    const page = await browser.post(uploadAction(form.html, "/post/document"), body, { origin: ORIGIN });
    expect(page.status).toBe(200);
    expect(page.html).toContain("We filled in the form from offer.txt");
    expect(page.html).toMatch(/id="title"[^>]*value="Data platform audit"/);
    expect(page.html).toMatch(/<option value="data-analytics" selected="">/);
    expect(page.html).toMatch(/id="price"[^>]*value="4800"/);
    expect(h.deps.documents.inputs).toHaveLength(1);
    expect(h.deps.documents.inputs[0]?.filename).toBe("offer.txt");
  });

  it("refuses an upload without its token, and one over the size bound with a page", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const noToken = new FormData();
    noToken.set("document", new File(["x"], "a.txt"));
    expect((await browser.post("/post/document", noToken, { origin: ORIGIN })).status).toBe(403);
    const form = await browser.get("/post");
    const big = new FormData();
    big.set("document", new File([new Uint8Array(10 * 1024 * 1024 + 1)], "big.pdf"));
    const page = await browser.post(uploadAction(form.html, "/post/document"), big, { origin: ORIGIN });
    expect(page.status).toBe(413);
    expect(page.html).toContain("larger than 10 MB");
    expect(h.deps.documents.inputs).toHaveLength(0);
  });
});

describe("browsing", () => {
  it("searches by text and category, pages with Next, and shows title, category, price and author", async () => {
    const h = webHarness({ slots: { personal: 30, business: 50, admin: 100 } });
    const { actor } = await h.signedIn("ada@example.com");
    await h.m.users.updateDisplayName(actor, { displayName: "Ada Consulting" });
    for (let i = 0; i < 22; i++) {
      await h.m.listings.create(actor, {
        title: `Audit ${i}`,
        description: "d",
        category: "cybersecurity",
        price: 100 + i,
      });
    }
    await h.m.listings.create(actor, { title: "Brand design", description: "d", category: "ux-ui-design" });
    const b = h.browser();
    const first = await b.get("/?category=cybersecurity");
    expect(first.html.match(/class="card"/g)).toHaveLength(20);
    expect(first.html).toContain("Cybersecurity");
    expect(first.html).toContain("by Ada Consulting");
    expect(first.html).toContain("121");
    const next = /href="(\/\?[^"]+)" rel="next"/.exec(first.html)?.[1]?.replaceAll("&amp;", "&");
    expect(next).toContain("cursor=");
    const second = await b.get(next ?? "");
    expect(second.html.match(/class="card"/g)).toHaveLength(2);
    expect(second.html).not.toContain('rel="next"');
    expect(second.html).not.toContain("Brand design");

    const byText = await b.get("/?q=brand");
    expect(byText.html.match(/class="card"/g)).toHaveLength(1);
    expect(byText.html).toContain("Brand design");
    expect(byText.html).toContain("Price on request");
    expect((await b.get("/?category=plumbing")).status).toBe(400);
  });

  it("says a page that a bounded search left empty is not the end, and links on to older listings", async () => {
    const h = webHarness();
    const { listing: made } = await h.author("short@example.com", {
      title: "Brand design",
      category: "ux-ui-design",
    });
    const find = h.deps.repos.listings.find.bind(h.deps.repos.listings);
    // As a bounded search may: no match among the listings it examined, down to `made`.
    h.deps.repos.listings.find = async (query, now) =>
      query.after === undefined
        ? Object.assign([], { resumeAfter: { rank: 0, price: null, id: made.id } })
        : find(query, now);
    const b = h.browser();
    const first = await b.get("/?q=c%23");
    expect(first.html).not.toContain('class="card"');
    expect(first.html).toContain("None of the listings searched so far match. Others may.");
    expect(first.html).not.toContain("No listings match.");
    const next = /href="(\/\?[^"]+)" rel="next">\s*Search further/
      .exec(first.html)?.[1]
      ?.replaceAll("&amp;", "&");
    expect(next).toContain("cursor=");
    const second = await b.get(next ?? "");
    expect(second.html).toContain("No listings match.");
  });

  it("counts one view per page view by others, not by the author", async () => {
    const h = webHarness();
    const author = await h.signedIn();
    const listingId = listingIdOf(
      await author.browser.submit(await author.browser.get("/post"), "/post", FIELDS),
    );
    await author.browser.get(`/listings/${listingId}`);
    const visitor = h.browser();
    await visitor.get(`/listings/${listingId}`);
    const page = await visitor.get(`/listings/${listingId}`);
    expect(page.html).toContain("2 views");
    expect((await h.m.listings.get({ id: listingId })).views).toBe(2);
    expect(page.html).toContain("Log in to message the author");
  });
});

describe("my listings", () => {
  it("edits, pauses, resumes and deletes (after a confirmation step), each redirecting back", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const id = listingIdOf(await browser.submit(await browser.get("/post"), "/post", FIELDS));
    const mine = await browser.get("/my/listings");
    expect(mine.html).toContain("Kubernetes audit");
    expect(mine.html).toContain("0 views");

    const edit = await browser.get(`/my/listings/${id}/edit`);
    expect(edit.html).toMatch(/id="title"[^>]*value="Kubernetes audit"/);
    const saved = await browser.submit(edit, `/my/listings/${id}/edit`, {
      ...FIELDS,
      title: "Cluster audit",
      price: "",
    });
    expect(saved.location).toBe("/my/listings");
    expect(await h.m.listings.get({ id })).toMatchObject({ title: "Cluster audit", price: null });

    const paused = await browser.submit(await browser.get("/my/listings"), `/my/listings/${id}/status`, {
      status: "paused",
    });
    const afterPause = await browser.follow(paused);
    expect(afterPause.html).toContain("is paused");
    expect(afterPause.html).toContain("Paused");
    expect((await h.m.listings.search(ANONYMOUS, {})).items).toHaveLength(0);
    await browser.submit(afterPause, `/my/listings/${id}/status`, { status: "active" });
    expect((await h.m.listings.get({ id })).status).toBe("active");

    const confirm = await browser.get(`/my/listings/${id}/delete`);
    expect(h1(confirm.html)).toBe("Delete “Cluster audit”?");
    expect((await h.m.listings.search(ANONYMOUS, {})).items).toHaveLength(1);
    const deleted = await browser.submit(confirm, `/my/listings/${id}/delete`);
    expect(deleted.location).toBe("/my/listings");
    await expect(h.m.listings.get({ id })).rejects.toMatchObject({ code: "listing_not_found" });
    // Sent again: still the same outcome, no error.
    expect((await browser.submit(confirm, `/my/listings/${id}/delete`)).location).toBe("/my/listings");
  });

  it("another user cannot open the edit or delete step, nor post them", async () => {
    const h = webHarness();
    const author = await h.signedIn();
    const id = listingIdOf(await author.browser.submit(await author.browser.get("/post"), "/post", FIELDS));
    const other = await h.signedIn();
    expect((await other.browser.get(`/my/listings/${id}/edit`)).status).toBe(403);
    expect((await other.browser.get(`/my/listings/${id}/delete`)).status).toBe(403);
    const own = await other.browser.get("/my/listings");
    const res = await other.browser.post(
      `/my/listings/${id}/status`,
      new URLSearchParams({
        _csrf: formToken((await other.browser.get("/account")).html, "/account/profile"),
        status: "paused",
      }).toString(),
      { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    );
    expect(own.status).toBe(200);
    expect(res.status).toBe(403);
    expect((await h.m.listings.get({ id })).status).toBe("active");
  });
});
