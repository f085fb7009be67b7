import { describe, expect, test } from "vitest";
import { expectError, harness } from "./helpers.js";

// decisions.md 1.3.0 "Prices and units": what a price buys, in the marketplace's currency.
describe("price_unit on listings", () => {
  test("a 1.0.2 body gets fixed; a unit is stored, changed by PATCH, and kept by a PATCH without it", async () => {
    const h = harness();
    const s = await h.signUp();
    const plain = await h.listing(s, { price: 6500 });
    expect(plain).toMatchObject({ price: 6500, price_unit: "fixed" });
    const hourly = await h.listing(s, { price: 150, price_unit: "hour" });
    expect(hourly).toMatchObject({ price: 150, price_unit: "hour" });

    const patched = await h.call("PATCH", `/api/listings/${hourly.id}`, {
      token: s.token,
      body: { price_unit: "month" },
    });
    expect(await h.json(patched)).toMatchObject({ listing: { price: 150, price_unit: "month" } });
    const retitled = await h.call("PATCH", `/api/listings/${hourly.id}`, {
      token: s.token,
      body: { title: "Retitled" },
    });
    expect(await h.json(retitled)).toMatchObject({ listing: { price_unit: "month" } });
    const read = await h.call("GET", `/api/listings/${hourly.id}`);
    expect(await h.json(read)).toMatchObject({ listing: { price_unit: "month" } });
  });

  test("400 invalid_input names price_unit and the units", async () => {
    const h = harness();
    const s = await h.signUp();
    const res = await h.call("POST", "/api/listings", {
      token: s.token,
      body: { title: "t", description: "d", category: "cybersecurity", price_unit: "week" },
    });
    await expectError(res, 400, {
      error: "price_unit: must be one of fixed, hour, day, month",
      code: "invalid_input",
    });
  });

  test("capabilities name the currency every price is in", async () => {
    const h = harness();
    const res = await h.call("GET", "/api/capabilities");
    expect(await h.json(res)).toMatchObject({ currency: "USD" });
  });
});
