import { describe, expect, it } from "vitest";
import { renderHtml, renderText } from "../content.js";
import { renderMail } from "../render-mail.js";
import { messageReceivedTemplate } from "./message-received.js";

const mail = {
  kind: "message_received",
  to: "seller@example.com",
  displayName: "Sam",
  senderName: `Eve <script>alert("x")</script>`,
  listingTitle: "Audit & <i>review</i>",
  preview: `Hi! <img src=x onerror=alert(1)> "quoted" & more`,
  inboxUrl: "https://market.example/inbox",
  unsubscribeUrl: "https://market.example/unsubscribe?token=abc.message_mail.sig",
} as const;

describe("message received template", () => {
  it("names the sender and listing and quotes the message as plain text", () => {
    const text = renderText(messageReceivedTemplate(mail));
    expect(text).toContain(`${mail.senderName} wrote to you about “${mail.listingTitle}”:`);
    expect(text).toContain(`\n\n${mail.preview}\n\n`);
    expect(text).toContain("\nhttps://market.example/inbox\n");
    expect(text).toContain(`\n${mail.unsubscribeUrl}\n`);
  });

  it("escapes what other users wrote in the HTML part", () => {
    const html = renderHtml(messageReceivedTemplate(mail));
    expect(html).not.toMatch(/<(script|img|i)\b/);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot; &amp; more");
    expect(html).toContain("Eve &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("carries the RFC 8058 one-click unsubscribe headers; other mails do not", () => {
    expect(renderMail(mail, "Market <no-reply@market.example>").headers).toMatchObject({
      "List-Unsubscribe": `<${mail.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    const reset = renderMail(
      {
        kind: "password_reset",
        to: "a@example.com",
        displayName: "A",
        resetUrl: "https://market.example/reset-password?token=t",
        expiresInMinutes: 60,
      },
      "Market <no-reply@market.example>",
    );
    expect(reset.headers["List-Unsubscribe"]).toBeUndefined();
  });
});
