import { isMarketplaceError } from "@psm/core";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { assertStorableUrl } from "./strict-url.js";

/** A surface whose one route checks its URL as every surface does, answering the refusal's message. */
function surface() {
  const app = new Hono();
  app.get("/items/:id", (c) => {
    assertStorableUrl(c);
    return c.text("ok");
  });
  app.onError((error, c) =>
    c.text(isMarketplaceError(error, "invalid_input") ? error.message : "other", 400),
  );
  return app;
}

describe("assertStorableUrl", () => {
  it.each([
    ["/items/1?q=caf%C3%A9", 200, "ok"],
    ["/items/1?q=a+b&r=%20", 200, "ok"],
    ["/items/1?q=%00", 400, "q: must not contain a NUL character or a lone surrogate"],
    ["/items/1?q=%ED%A0%80", 400, "q: is not valid UTF-8"],
    ["/items/%FF?q=x", 400, "id: is not valid UTF-8"],
    ["/items/a%00b", 400, "id: must not contain a NUL character or a lone surrogate"],
  ])("%s answers %i", async (path, status, text) => {
    const res = await surface().request(path);
    expect([res.status, await res.text()]).toEqual([status, text]);
  });
});
