import { describe, expect, it } from "vitest";
import { renderHtml, renderText } from "../content.js";
import { renderMail } from "../render-mail.js";
import { savedSearchMatchedTemplate } from "./saved-search-matched.js";

const mail = {
  kind: "saved_search_matched",
  to: "buyer@example.com",
  displayName: "Bea",
  digest: false,
  searches: [
    {
      name: `Audits <script>alert("x")</script>`,
      listings: [{ title: `Audit & <img src=x onerror=alert(1)>`, url: "https://market.example/listings/1" }],
    },
  ],
  more: 2,
  manageUrl: "https://market.example/account/saved-searches",
  unsubscribeUrl: "https://market.example/unsubscribe?token=abc.saved_search_mail.sig",
} as const;

describe("saved search matched template", () => {
  it("names the saved search and links each new listing, counting the rest", () => {
    const text = renderText(savedSearchMatchedTemplate(mail));
    expect(savedSearchMatchedTemplate(mail).subject).toBe(`3 new listings match “${mail.searches[0].name}”`);
    expect(text).toContain(`${mail.searches[0].listings[0].title}:\nhttps://market.example/listings/1`);
    expect(text).toContain("And 2 more.");
    expect(text).toContain(`\n${mail.unsubscribeUrl}\n`);
  });

  it("escapes what users wrote in the HTML part and carries the one-click unsubscribe", () => {
    const html = renderHtml(savedSearchMatchedTemplate(mail));
    expect(html).not.toMatch(/<(script|img)\b/);
    expect(html).toContain("Audit &amp; &lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("Audits &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;:");
    expect(renderMail(mail, "Market <no-reply@market.example>").headers).toMatchObject({
      "List-Unsubscribe": `<${mail.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  it("says digest for the daily mail", () => {
    const digest = savedSearchMatchedTemplate({ ...mail, digest: true, more: 0 });
    expect(digest.subject).toBe("1 new listing matches your saved searches");
    expect(renderText(digest)).toContain("Today's new listings for your saved searches:");
  });
});
