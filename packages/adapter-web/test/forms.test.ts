import { describe, expect, it, vi } from "vitest";
import { type Page, webHarness } from "./harness.js";

// Validate once: a form is checked by core's use case alone, and every problem that one call
// finds is on the page after one submit, beside its field and in the summary.

/** The messages of the page's error summary. */
function summaryOf(page: Page): string[] {
  const summary = /<div class="error-summary"[^>]*>([\s\S]*?)<\/div>/.exec(page.html)?.[1] ?? "";
  return [...summary.matchAll(/<a href="#[^"]+">([^<]*)<\/a>/g)].map((match) => match[1] ?? "");
}

describe("one submit, one call to core, every problem shown", () => {
  it("sign-up: a bad email, a short password and a long display name", async () => {
    const h = webHarness();
    const signUp = vi.spyOn(h.m.auth, "signUp");
    const browser = h.browser();
    const page = await browser.submit(await browser.get("/signup"), "/signup", {
      email: "nope",
      password: "abc",
      display_name: "x".repeat(101),
    });
    expect(page.status).toBe(400);
    expect(signUp).toHaveBeenCalledTimes(1);
    expect(summaryOf(page)).toEqual([
      "Email must be a valid email address",
      "Password must be at least 6 characters",
      "Display name must be at most 100 characters",
    ]);
    for (const field of ["email", "password", "display_name"]) {
      expect(page.html).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"`));
    }
  });

  // A mistyped confirmation never reaches the use case, yet core's problems are shown with it.
  const passwordChanges = [
    {
      name: "password change: a missing current password and a short new one",
      newPassword: "abc",
      confirmation: "abc",
      coreCalls: 1,
      summary: ["Current password is required", "New password must be at least 6 characters"],
    },
    {
      name: "password change with a mistyped confirmation: core's problems too, and nothing changes",
      newPassword: "a new long passphrase",
      confirmation: "a new long passphrase!",
      // A mistyped confirmation never reaches the use case; core's problems are shown with it.
      coreCalls: 0,
      summary: ["Current password is required", "Confirm new password does not match the new password"],
    },
  ];
  for (const { name, newPassword, confirmation, coreCalls, summary } of passwordChanges) {
    it(name, async () => {
      const h = webHarness();
      const { browser, email } = await h.signedIn("typo@example.com", "old-password");
      const change = vi.spyOn(h.m.auth, "changePassword");
      const page = await browser.submit(await browser.get("/account"), "/account/password", {
        current_password: "",
        new_password: newPassword,
        confirm_password: confirmation,
      });
      expect(page.status).toBe(400);
      expect(change).toHaveBeenCalledTimes(coreCalls);
      expect(summaryOf(page)).toEqual(summary);
      await expect(h.m.auth.logIn({ email, password: "old-password" })).resolves.toBeTruthy();
    });
  }

  it("editing a listing: an empty title and a price that is not a number", async () => {
    const h = webHarness();
    const { browser, listing } = await h.author(undefined, { description: "Two weeks." });
    const update = vi.spyOn(h.m.listings, "update");
    const edit = await browser.get(`/my/listings/${listing.id}/edit`);
    const page = await browser.submit(edit, `/my/listings/${listing.id}/edit`, {
      title: "",
      description: "Two weeks.",
      category: "cybersecurity",
      price: "lots",
    });
    expect(page.status).toBe(400);
    expect(update).toHaveBeenCalledTimes(1);
    expect(summaryOf(page)).toEqual(["Title must not be empty", expect.stringMatching(/^Price must be /)]);
    expect((await h.m.listings.get({ id: listing.id })).title).toBe("Audit");
  });
});
