import { describe, expect, it } from "vitest";
import { renderHtml, renderText } from "../content.js";
import { webhookDisabledTemplate } from "./webhook-disabled.js";

const hostile = "https://hooks.example.com/in?<img src=x onerror=alert(1)>";

describe("webhook disabled template", () => {
  const content = webhookDisabledTemplate({
    kind: "webhook_disabled",
    to: "owner@example.com",
    displayName: "Ada",
    webhooks: [
      { url: hostile, reason: "The receiver answered 410 Gone" },
      { url: "https://b.example.org/hook", reason: "Every attempt failed (8); the last: HTTP 500" },
    ],
    manageUrl: "https://market.example/account/webhooks",
  });

  it("names every webhook turned off with its reason, and links to where it is managed", () => {
    const text = renderText(content);
    expect(content.subject).toBe("Webhooks of yours were turned off");
    expect(text).toContain(`${hostile}: The receiver answered 410 Gone`);
    expect(text).toContain("https://b.example.org/hook: Every attempt failed (8); the last: HTTP 500");
    expect(text).toContain("\nhttps://market.example/account/webhooks\n");
  });

  it("escapes the URLs an owner typed in the HTML part", () => {
    const html = renderHtml(content);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("speaks of one webhook in the singular", () => {
    const one = webhookDisabledTemplate({
      kind: "webhook_disabled",
      to: "owner@example.com",
      displayName: "Ada",
      webhooks: [{ url: "https://a.example/h", reason: "x" }],
      manageUrl: "https://market.example/account/webhooks",
    });
    expect(one.subject).toBe("A webhook of yours was turned off");
    expect(renderText(one)).toContain("this webhook");
  });
});
