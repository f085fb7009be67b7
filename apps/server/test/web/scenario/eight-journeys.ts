import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend } from "../../support/backends.js";
import { brochurePdf } from "../../support/brochure-pdf.js";
import { checkPage, inNewTab, openTab, screenshots, type Tab } from "../../support/browser.js";
import { errorSummary, fill, heading, logIn, notice, press, signUp } from "../../support/pages.js";
import type { WebSuite } from "../../support/web-suite.js";
import type { World } from "../../support/world.js";

/**
 * The eight journeys in a real browser, one after another as one
 * author and one buyer live them, on the server `site` returns: with
 * JavaScript on (every page reached is checked by axe-core) or off.
 */
export function eightJourneys(backend: Backend, js: boolean, suite: WebSuite, site: () => World): void {
  // Quoted as the describe.each that first named these tests printed it, so their names stay.
  describe(`with JavaScript '${js ? "on" : "off"}'`, () => {
    const tag = `${backend}-${js ? "js" : "nojs"}`;
    const author = {
      email: `author-${tag}@example.com`,
      password: "author-password-1",
      name: `Shieldworks ${tag}`,
    };
    const buyer = { email: `buyer-${tag}@example.com`, password: "buyer-password-1", name: `Buyer ${tag}` };
    const shoot = backend === "sqlite" && js;
    let authorTab: Tab;
    let buyerTab: Tab;
    let title = "";
    let listingPath = "";

    beforeAll(async () => {
      authorTab = await openTab(suite.browser(), site().url, js);
      buyerTab = await openTab(suite.browser(), site().url, js);
      if (js) await authorTab.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    });
    afterAll(async () => {
      await authorTab?.context.close();
      await buyerTab?.context.close();
    });

    it("1. signs up (an error first, shown beside the field), confirms the address, logs out and in", async () => {
      const { page } = authorTab;
      await page.goto("/");
      await checkPage(authorTab);
      await press(page, "link", "Sign up");
      await fill(page, "Email", author.email);
      await fill(page, "Password", "123");
      await press(page, "button", "Create account");
      expect(await errorSummary(page)).toContain("Password must be at least 6 characters");
      const described = await page.getByLabel("Password", { exact: true }).getAttribute("aria-describedby");
      expect(described).toContain("password-error");
      await checkPage(authorTab);
      await fill(page, "Password", author.password);
      await page.getByLabel("Display name").fill(author.name);
      await press(page, "button", "Create account");
      expect(await notice(page)).toContain("Your account is ready");
      await checkPage(authorTab);

      const token = await site().mailed("verify-email", author.email);
      await page.goto(`/verify-email?token=${token}`);
      await checkPage(authorTab);
      await press(page, "button", "Yes, I created this account");
      expect(await heading(page)).toBe("Address confirmed");
      await checkPage(authorTab);

      await page.goto("/");
      await press(page, "button", "Log out");
      expect(await notice(page)).toBe("You are logged out.");
      await press(page, "link", "Log in");
      await fill(page, "Email", author.email);
      await fill(page, "Password", "wrong-password");
      await press(page, "button", "Log in");
      expect(await errorSummary(page)).toContain("The email or the password is wrong");
      await checkPage(authorTab);
      await fill(page, "Password", author.password);
      await press(page, "button", "Log in");
      expect(await page.getByRole("button", { name: "Log out" }).count()).toBe(1);
      await checkPage(authorTab);
    });

    it("2. posts a listing from a PDF: reviews the pre-filled fields, then publishes it once", async () => {
      const { page } = authorTab;
      await press(page, "link", "Post a listing");
      expect(await page.locator(".slots").textContent()).toBe("You are using 0 of 5 listings.");
      await checkPage(authorTab);
      await page.getByLabel("Document", { exact: true }).setInputFiles({
        name: "brochure.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from(brochurePdf()),
      });
      await press(page, "button", "Read document");
      expect(await page.locator(".notice-info").textContent()).toContain(
        "We filled in the form from brochure.pdf",
      );
      expect(await page.getByLabel("Title", { exact: true }).inputValue()).toMatch(/Penetration Testing/i);
      expect(await page.getByLabel("Description").inputValue()).toContain("OWASP Top 10");
      expect(await page.getByLabel("Category").inputValue()).toBe("cybersecurity");
      expect(await page.getByLabel("Price").inputValue()).toBe("4800");
      expect(await page.getByLabel("Contact email").inputValue()).toBe("pentest@shieldworks.io");
      await checkPage(authorTab);
      if (shoot) await screenshots(page, "post-listing");

      // The review: a title of one's own.
      title = `Web application penetration test ${tag}`;
      await fill(page, "Title", title);
      const publish = page.getByRole("button", { name: "Publish listing" });
      if (js) {
        await publish.click();
      } else {
        // Without the script nothing stops a double click: the server makes it one listing.
        await publish.dblclick();
      }
      await page.waitForURL(/\/listings\/[0-9a-f-]{36}$/);
      await page.waitForLoadState("load");
      listingPath = new URL(page.url()).pathname;
      expect(await heading(page)).toBe(title);
      await checkPage(authorTab);
      await press(page, "link", "My listings");
      expect(await page.getByRole("link", { name: title, exact: true }).count()).toBe(1);
      expect(await page.locator(".slots").textContent()).toContain("You are using 1 of 5 listings.");
    });

    it("3. a visitor finds it by search and by category", async () => {
      await inNewTab(suite.browser(), site().url, js, async (visitor) => {
        const { page } = visitor;
        await page.goto("/");
        await fill(page, "Search", tag);
        await press(page, "button", "Search");
        expect(await page.locator(".card").count()).toBe(1);
        const card = page.locator(".card");
        expect(await card.textContent()).toContain("Cybersecurity");
        expect(await card.textContent()).toContain("4,800");
        expect(await card.textContent()).toContain(`by ${author.name}`);
        await checkPage(visitor);

        await page.goto("/");
        await page.getByLabel("Category").selectOption("cybersecurity");
        await press(page, "button", "Search");
        expect(await page.getByRole("link", { name: title }).count()).toBe(1);
        await page.goto("/");
        await page.getByLabel("Category").selectOption("legal-consulting");
        await press(page, "button", "Search");
        expect(await page.getByRole("link", { name: title }).count()).toBe(0);

        // Words of the description find it too (stemmed: "misconfigurations"), counted per category.
        await page.goto("/");
        await fill(page, "Search", `OWASP misconfigurations ${tag}`);
        await press(page, "button", "Search");
        expect(await page.getByRole("link", { name: title }).count()).toBe(1);
        expect(await page.getByLabel("Category").locator("option:checked").textContent()).toBe(
          "All categories",
        );
        expect(await page.getByLabel("Category").textContent()).toContain("Cybersecurity (1)");
        await checkPage(visitor);
        // Nothing in a price range below its price: the page offers to remove the range.
        await page.goto(`/?q=${encodeURIComponent(tag)}&max_price=100`);
        expect(await page.locator(".card").count()).toBe(0);
        await press(page, "link", "Remove the price range");
        expect(await page.getByRole("link", { name: title }).count()).toBe(1);
        await checkPage(visitor);

        await page.goto(`/?q=${encodeURIComponent(tag)}`);
        await press(page, "link", title);
        expect(await heading(page)).toBe(title);
        expect(await page.getByRole("link", { name: "Log in to message the author" }).count()).toBe(1);
        await checkPage(visitor);
        if (shoot) await screenshots(page, "listing");
        await page.goto("/");
        if (shoot) await screenshots(page, "home");
      });
    });

    it("4. a second user messages the author from the listing page", async () => {
      await signUp(buyerTab, buyer.email, buyer.password, buyer.name);
      const { page } = buyerTab;
      await page.goto(listingPath);
      await checkPage(buyerTab);
      await fill(page, "Message", "Hello! Could you start the test in May?");
      await press(page, "button", "Send message");
      expect(new URL(page.url()).pathname).toBe("/inbox");
      expect(await notice(page)).toContain("Message sent");
      expect(await page.locator(".conversation").textContent()).toContain("Could you start the test in May?");
      await checkPage(buyerTab);
    });

    it("5. the author reads it in the inbox and replies in place", async () => {
      const { page } = authorTab;
      await press(page, "link", "Inbox");
      const conversation = page.locator(".conversation");
      expect(await conversation.count()).toBe(1);
      expect(await conversation.textContent()).toContain(title);
      expect(await conversation.textContent()).toContain(`with ${buyer.name}`);
      expect(await conversation.textContent()).toContain("Could you start the test in May?");
      await checkPage(authorTab);
      await fill(page, `Reply to ${buyer.name}`, "Yes: May 4th suits us.");
      await press(page, "button", "Send message");
      expect(await notice(page)).toContain("Message sent");
      const text = (await page.locator(".conversation").textContent()) ?? "";
      expect(text.indexOf("May 4th suits us")).toBeGreaterThan(
        text.indexOf("Could you start the test in May?"),
      );
      if (shoot) await screenshots(page, "inbox");
      await buyerTab.page.goto("/inbox");
      expect(await buyerTab.page.locator(".conversation").textContent()).toContain("May 4th suits us");
    });

    it("6. resets a forgotten password through the link in the outbox mail", async () => {
      const { page } = authorTab;
      await press(page, "button", "Log out");
      await press(page, "link", "Log in");
      await press(page, "link", "Forgot your password?");
      await checkPage(authorTab);
      await fill(page, "Email", author.email);
      await press(page, "button", "Send reset link");
      expect(await notice(page)).toContain("we have sent it a link");
      const token = await site().mailed("reset-password", author.email);
      await page.goto(`/reset-password?token=${token}`);
      await checkPage(authorTab);
      await fill(page, "New password", "brand-new-password");
      await fill(page, "Confirm the new password", "brand-new-password");
      await press(page, "button", "Set new password");
      expect(await heading(page)).toBe("Password changed");
      await checkPage(authorTab);
      author.password = "brand-new-password";
      await logIn(authorTab, author.email, author.password);
    });

    it("7. edits, pauses and deletes the listing, with a confirmation step", async () => {
      const { page } = authorTab;
      await press(page, "link", "My listings");
      await checkPage(authorTab);
      if (shoot) await screenshots(page, "my-listings");
      await press(page, "link", `Edit ${title}`);
      await checkPage(authorTab);
      await page.getByLabel("Price").fill("a lot");
      await press(page, "button", "Save changes");
      expect(await errorSummary(page)).toContain("Price must be a number");
      expect(await page.getByLabel("Price").getAttribute("aria-invalid")).toBe("true");
      await checkPage(authorTab);
      await page.getByLabel("Price").fill("5200");
      await press(page, "button", "Save changes");
      expect(await notice(page)).toContain("Saved your changes");
      expect(await page.locator(".row").textContent()).toContain("5,200");

      await press(page, "button", `Pause ${title}`);
      expect(await notice(page)).toContain("is paused");
      expect(await page.locator(".badge-paused").count()).toBe(1);
      const search = await fetch(`${site().url}/api/listings?search=${encodeURIComponent(tag)}`);
      expect(((await search.json()) as { count: number }).count).toBe(0);

      await press(page, "link", `Delete ${title}`);
      expect(await heading(page)).toBe(`Delete “${title}”?`);
      await checkPage(authorTab);
      await press(page, "button", "Delete listing");
      expect(await notice(page)).toBe("The listing was deleted.");
      expect(await page.getByRole("link", { name: title }).count()).toBe(0);
      expect((await fetch(`${site().url}${listingPath}`, { headers: { accept: "text/html" } })).status).toBe(
        404,
      );
    });

    it("8. creates an API key (shown once), uses it, and deactivates it", async () => {
      const { page } = authorTab;
      await press(page, "link", "Account");
      await checkPage(authorTab);
      await press(page, "link", "API keys");
      await checkPage(authorTab);
      await fill(page, "Name", "pricing agent");
      await press(page, "button", "Create key");
      const key = await page.getByLabel("Key", { exact: true }).inputValue();
      expect(key).toMatch(/^psm_[0-9a-f]{64}$/);
      const copy = page.getByRole("button", { name: "Copy key" });
      if (js) {
        await copy.click();
        // The button says it worked (its name changes, so it is found by what it copies).
        await expect.poll(() => page.locator("button[data-copy='new-key']").textContent()).toBe("Copied");
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      } else {
        expect(await copy.isVisible()).toBe(false);
      }
      await checkPage(authorTab);
      if (shoot) await screenshots(page, "api-keys");
      const me = await fetch(`${site().url}/api/auth/me`, { headers: { "x-api-key": key } });
      expect(me.status).toBe(200);
      await page.reload();
      expect(await page.getByLabel("Key", { exact: true }).count()).toBe(0);

      await press(page, "button", "Deactivate pricing agent");
      expect(await notice(page)).toContain("deactivated");
      expect(await page.getByRole("row", { name: /pricing agent/ }).textContent()).toContain("Deactivated");
      expect((await fetch(`${site().url}/api/auth/me`, { headers: { "x-api-key": key } })).status).toBe(401);
    });
  });
}
