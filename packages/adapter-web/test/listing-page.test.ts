import { describe, expect, it } from "vitest";
import { webHarness } from "./harness.js";

/** The listing page's facts, as "term: detail" pairs. */
function facts(html: string): string[] {
  const list = /<dl class="facts">([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? "";
  return [...list.matchAll(/<dt>([\s\S]*?)<\/dt>\s*<dd>([\s\S]*?)<\/dd>/g)].map(
    (m) => `${m[1]}: ${(m[2] ?? "").replace(/<[^>]+>/g, "")}`,
  );
}

// "Set" means the author gave a condition: core stores "good" when none is given (its schema's
// default), and a stored "good" cannot tell typed from defaulted, so neither it nor an empty one
// is shown.
describe("the listing page's condition", () => {
  it("is shown when the author gave one", async () => {
    const h = webHarness();
    const { listing, browser } = await h.author(undefined, { condition: "fixed scope" });
    expect(facts((await browser.get(`/listings/${listing.id}`)).html)).toContain("Condition: fixed scope");
  });

  it("is not shown for core's default, nor when an edit cleared it", async () => {
    const h = webHarness();
    const { listing, actor, browser } = await h.author();
    expect(listing.condition).toBe("good");
    const page = await h.browser().get(`/listings/${listing.id}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain("Condition");
    await h.m.listings.update(actor, { id: listing.id, condition: "" });
    expect((await browser.get(`/listings/${listing.id}`)).html).not.toContain("Condition");
  });

  it("is not shown for a listing posted through the form with the field left empty", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const done = await browser.submit(await browser.get("/post"), "/post", {
      title: "Brochure service",
      description: "What the brochure says.",
      category: "strategic-consulting",
      price: "6500",
      condition: "",
    });
    const page = await browser.follow(done);
    expect(page.html).toContain("Brochure service");
    expect(page.html).not.toContain("Condition");
  });
});

// decisions.md 1.3.0 "Prices and units": "EUR 6,500 fixed" in a brochure stays that on the page.
describe("prices", () => {
  it("show the marketplace's currency and the listing's unit on the listing, the cards and my listings", async () => {
    const h = webHarness({ currency: "EUR" });
    const { listing, browser } = await h.author(undefined, { price: 6500 });
    const hourly = await h.author(undefined, { title: "Hourly advice", price: 150, priceUnit: "hour" });
    expect((await browser.get(`/listings/${listing.id}`)).html).toContain("EUR 6,500 fixed");
    expect((await browser.get(`/listings/${hourly.listing.id}`)).html).toContain("EUR 150 / hour");
    const home = (await h.browser().get("/")).html;
    expect(home).toContain("EUR 6,500 fixed");
    expect(home).toContain("EUR 150 / hour");
    expect((await browser.get("/my/listings")).html).toContain("EUR 6,500 fixed");
  });

  it("take their unit from the form, and the edit form shows the stored one", async () => {
    const h = webHarness();
    const { browser } = await h.signedIn();
    const done = await browser.submit(await browser.get("/post"), "/post", {
      title: "Day-rate workshop",
      description: "A facilitated day.",
      category: "strategic-consulting",
      price: "900",
      price_unit: "day",
    });
    const page = await browser.follow(done);
    expect(page.html).toContain("USD 900 / day");
    const id = /\/listings\/([0-9a-f-]{36})/.exec(done.location ?? "")?.[1];
    expect(id).toBeDefined();
    const edit = await browser.get(`/my/listings/${id}/edit`);
    expect(edit.html).toMatch(/<option value="day" selected/);
  });
});
