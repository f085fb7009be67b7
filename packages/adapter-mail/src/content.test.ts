import { describe, expect, it } from "vitest";
import { escapeHtml, type MailContent, renderHtml, renderText } from "./content.js";
import { renderMail } from "./render-mail.js";
import { emailVerificationTemplate } from "./templates/email-verification.js";
import { passwordResetTemplate } from "./templates/password-reset.js";

const mail = {
  kind: "password_reset",
  to: "eve@example.com",
  displayName: `<script>alert("x")</script> & 'Eve'`,
  resetUrl: "https://market.example/reset-password?token=abc&x=<y>",
  expiresInMinutes: 60,
} as const;

/** The link, alone on its line in the text, and how long it works, in both parts of a mail. */
function expectLinkAndLifetime(content: MailContent, url: string, lifetime: string): void {
  const text = renderText(content);
  const html = renderHtml(content);
  expect(text).toContain(`\n${url}\n`);
  expect(text).toContain(lifetime);
  expect(html).toContain(`href="${escapeHtml(url)}"`);
  expect(html).toContain(lifetime);
}

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and attributes", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("password reset template", () => {
  const content = passwordResetTemplate(mail);

  it("puts the link and its lifetime in both parts", () => {
    expect(content.subject).toBe("Reset your password");
    expectLinkAndLifetime(content, mail.resetUrl, "expires in 60 minutes");
  });

  it("says 1 minute, not 1 minutes", () => {
    expect(renderText(passwordResetTemplate({ ...mail, expiresInMinutes: 1 }))).toContain(
      "expires in 1 minute ",
    );
  });

  it("escapes user-supplied text in HTML and leaves it readable in text", () => {
    const html = renderHtml(content);
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Eve&#39;");
    expect(renderText(content)).toContain(`Hello ${mail.displayName},`);
  });

  it("loads nothing from elsewhere: no images, scripts, stylesheets or fonts", () => {
    const html = renderHtml(content);
    expect(html).not.toMatch(/<(img|script|link|iframe|object)\b|url\(|@import|src=/i);
  });
});

describe("email verification template", () => {
  const verification = {
    kind: "email_verification",
    to: "eve@example.com",
    displayName: "Member 1a2b3c",
    verifyUrl: "https://market.example/verify-email?token=abc&x=<y>",
    expiresInHours: 24,
  } as const;
  const content = emailVerificationTemplate(verification);

  it("puts the link and its lifetime in both parts", () => {
    expect(content.subject).toBe("Confirm your email address");
    expectLinkAndLifetime(content, verification.verifyUrl, "expires in 24 hours");
    expect(renderText(emailVerificationTemplate({ ...verification, expiresInHours: 1 }))).toContain(
      "expires in 1 hour ",
    );
  });

  it("asks, before the link, to follow it only if the reader created the account", () => {
    const text = renderText(content);
    const condition = text.indexOf("only if you created it yourself");
    expect(condition).toBeGreaterThan(-1);
    expect(condition).toBeLessThan(text.indexOf(verification.verifyUrl));
    expect(text).toContain("If you did not create it, do not follow the link");
  });

  it("renders through renderMail by its kind", () => {
    const rendered = renderMail(verification, "a@b.example");
    expect(rendered.subject).toBe("Confirm your email address");
    expect(rendered.text).toContain(verification.verifyUrl);
  });
});

describe("renderMail", () => {
  it("keeps a display name on one header line", () => {
    const rendered = renderMail({ ...mail, displayName: "Zoë\r\nBcc: evil@example.com" }, "a@b.example");
    expect(rendered.to).toEqual({ name: "Zoë Bcc: evil@example.com", address: "eve@example.com" });
  });
});
