import { expect, it } from "vitest";
import { axeClean } from "../support/axe.js";
import { reportSkippedPostgres } from "../support/backends.js";
import { inNewTab } from "../support/browser.js";
import { fill, heading, notice, press, signUp } from "../support/pages.js";
import { useWebSuite } from "../support/web-suite.js";

// Saved searches in a real browser against the compiled server, with JavaScript on and off: a
// visitor who is not signed in is sent to log in and back to the same search, saves it with the
// browse page's form (CSRF-protected, no script needed), finds it on the account page, runs it
// again from there and deletes it.

reportSkippedPostgres("the saved searches pages in a browser");
const suite = useWebSuite();

suite.describeSites((backend, site) => {
  for (const js of [true, false]) {
    it(`with JavaScript ${js ? "on" : "off"}: saves the browse page's search, lists it and deletes it`, async () => {
      const tag = `${backend}-${js ? "js" : "nojs"}`;
      const email = `saver-${tag}@example.com`;
      const password = "saver-page-password-1";
      await inNewTab(suite.browser(), site().url, js, async (tab) => {
        const { page } = tab;
        await signUp(tab, email, password, `Saver ${tag}`);
        await press(page, "button", "Log out");
        const search = `/?q=kubernetes+audit&category=cybersecurity&max_price=9000`;
        await page.goto(search);
        await press(page, "link", "Log in to save this search");
        await fill(page, "Email", email);
        await fill(page, "Password", password);
        await press(page, "button", "Log in");
        expect(new URL(page.url()).search).toBe(new URL(search, site().url).search);
        await axeClean(tab, "the browse page with a search to save");

        await press(page, "button", "Save this search");
        expect(await heading(page)).toBe("Saved searches");
        expect(await notice(page)).toContain("Search saved");
        const item = page.locator(".saved-searches li").first();
        expect(await item.textContent()).toContain("kubernetes audit, cybersecurity, up to 9000");
        await axeClean(tab, "the saved searches page with one");

        await press(page, "link", "kubernetes audit, cybersecurity, up to 9000");
        expect(new URL(page.url()).searchParams.get("q")).toBe("kubernetes audit");
        await page.goto("/account");
        await press(page, "link", "saved searches");
        await press(page, "button", `Delete saved search kubernetes audit, cybersecurity, up to 9000`);
        expect(await notice(page)).toBe("Saved search deleted.");
        expect(await page.getByText("You have no saved searches yet.").count()).toBe(1);
        expect(tab.problems).toEqual([]);
      });
    });
  }
});
