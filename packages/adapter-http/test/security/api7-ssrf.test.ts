/**
 * OWASP API7:2023 Server Side Request Forgery. Every URL a caller can put in
 * input (listing images, URLs in structured data, text and messages, URLs in
 * an uploaded document, a forged Host header) is stored or shown, never
 * fetched: a loopback server stands where an internal service would be.
 */
import { createDocumentParser } from "@psm/adapter-documents";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { uploadForm } from "./support/files.js";
import { type Loopback, startLoopback } from "./support/loopback.js";
import { target } from "./support/target.js";

let internal: Loopback;
let fetchSpy: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  internal = await startLoopback();
});
afterAll(() => internal.close());
beforeEach(() => {
  internal.hits.length = 0;
  fetchSpy = vi.spyOn(globalThis, "fetch");
});
afterEach(() => {
  fetchSpy.mockRestore();
});

describe("URLs in input are stored, never fetched", () => {
  test("listing images, structured data, description and contact; then read, searched and viewed", async () => {
    const t = target();
    const s = await t.signUp();
    const images = [
      `${internal.url}/image.png`,
      `${internal.url}/latest/meta-data/`,
      "http://169.254.169.254/x",
    ];
    const res = await t.request("POST", "/api/listings", {
      token: s.token,
      body: {
        title: `See ${internal.url}/title`,
        description: `Brochure at ${internal.url}/brochure.pdf`,
        category: "cybersecurity",
        images,
        structured_data: {
          website: `${internal.url}/site`,
          webhook_url: `${internal.url}/hook`,
          logo: images[0],
        },
      },
    });
    expect(res.status).toBe(201);
    const { listing } = await t.json<{ listing: { id: string; images: string[] } }>(res);
    expect(listing.images).toEqual(images);
    await t.request("PATCH", `/api/listings/${listing.id}`, {
      token: s.token,
      body: { images: [`${internal.url}/patched.png`] },
    });
    await t.request("GET", `/api/listings/${listing.id}`);
    await t.request("GET", "/api/listings?search=See");
    await t.request("POST", `/api/listings/${listing.id}/view`);
    const buyer = await t.signUp();
    await t.request("POST", "/api/messages", {
      token: buyer.token,
      body: { listing_id: listing.id, receiver_id: s.id, content: `Callback: ${internal.url}/callback` },
    });
    await t.request("PUT", "/api/users/update", {
      token: s.token,
      body: { display_name: `${internal.url}/me` },
    });

    expect(internal.hits).toEqual([]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  test("URLs inside an uploaded document, read by the real parser, are not followed", async () => {
    const parser = createDocumentParser();
    try {
      const t = target({ documents: parser });
      const s = await t.signUp();
      const text = `Penetration testing\n\nFull report: ${internal.url}/report\nLogo: ${internal.url}/logo.png\nContact: sales@pentest.example`;
      const res = await t.request("POST", "/api/parse-pdf", {
        token: s.token,
        raw: uploadForm(text, "offer.txt", "text/plain"),
      });
      expect(res.status).toBe(200);
      expect(internal.hits).toEqual([]);
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      await parser.close();
    }
  });

  test("a forged Host header does not steer the reset link, and nothing is fetched", async () => {
    const t = target();
    const s = await t.signUp();
    const res = await t.request("POST", "/api/auth/reset-password", {
      body: { email: s.email },
      headers: { Host: new URL(internal.url).host, "X-Forwarded-Host": "evil.example" },
    });
    expect(res.status).toBe(200);
    await t.marketplace.mail.dispatchDue();
    // The sign-up's verification mail and the reset mail: both links under PUBLIC_URL.
    expect(t.mailer.sent).toHaveLength(2);
    expect(t.mailer.ofKind("password_reset")[0]?.resetUrl).toMatch(
      /^http:\/\/localhost:3000\/reset-password\?token=/,
    );
    expect(t.mailer.ofKind("email_verification")[0]?.verifyUrl).toMatch(
      /^http:\/\/localhost:3000\/verify-email\?token=/,
    );
    expect(internal.hits).toEqual([]);
  });

  test("the loopback server does count requests (the checks above can fail)", async () => {
    await fetch(`${internal.url}/probe`);
    expect(internal.hits).toEqual(["/probe"]);
  });
});
