import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { reportSkippedPostgres } from "../support/backends.js";
import { checkPage, inNewTab, screenshots, type Tab, VIEWPORTS } from "../support/browser.js";
import { errorSummary, fill, heading, notice, press, signUp } from "../support/pages.js";
import { useWebSuite } from "../support/web-suite.js";

// The keys page of 1.3.0 (scopes, expiry, rotation) in a real browser against the compiled
// server, with JavaScript on and off. checkPage runs axe once per route and state, but this page
// shows four different things at one route (empty, refused, a new key, a rotated key), so each
// is run through axe here, with the tags checkPage uses.

reportSkippedPostgres("the API keys page in a browser");
const suite = useWebSuite();

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** Zero WCAG 2.1 A/AA violations on what the page shows now; axe needs scripts, so only with them. */
async function axeClean(tab: Tab, state: string): Promise<void> {
  await checkPage(tab);
  if (!tab.javaScript) return;
  const results = await new AxeBuilder({ page: tab.page }).withTags(AXE_TAGS).analyze();
  const found = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join(", ")})`,
  );
  expect(found, `axe on the keys page, ${state}`).toEqual([]);
}

/** The status of a call to the API with `key`. */
async function statusWith(base: string, path: string, key: string): Promise<number> {
  return (await fetch(`${base}${path}`, { headers: { "x-api-key": key } })).status;
}

/** The value the page shows once. */
function shownKey(page: Page): Promise<string> {
  return page.getByLabel("Key", { exact: true }).inputValue();
}

suite.describeSites((backend, site) => {
  for (const js of [true, false]) {
    it(`with JavaScript ${js ? "on" : "off"}: creates a scoped expiring key and rotates it`, async () => {
      const tag = `${backend}-${js ? "js" : "nojs"}`;
      await inNewTab(suite.browser(), site().url, js, async (tab) => {
        const { page } = tab;
        const base = site().url;
        await signUp(tab, `keys-page-${tag}@example.com`, "keys-page-password-1", `Keys ${tag}`);
        await page.goto("/account/keys");
        expect(await heading(page)).toBe("API keys");
        expect(await page.getByText("You have no API keys.").count()).toBe(1);
        await axeClean(tab, "without keys");

        // Spaces pass the browser's `required` but not core: refused beside the field, the ticks kept.
        await fill(page, "Name", "   ");
        await page.getByLabel("listings:write", { exact: true }).check();
        await press(page, "button", "Create key");
        expect(await errorSummary(page)).toContain("Name must not be empty");
        expect(await page.getByLabel("listings:write", { exact: true }).isChecked()).toBe(true);
        await axeClean(tab, "with a refused form");

        await fill(page, "Name", `deploy bot ${tag}`);
        await page.getByLabel("events:read", { exact: true }).check();
        await page.getByLabel("Expires", { exact: true }).selectOption({ label: "In 30 days" });
        await press(page, "button", "Create key");
        expect(await notice(page)).toBe("Your API key is created.");
        const first = await shownKey(page);
        expect(first).toMatch(/^psm_[0-9a-f]{64}$/);
        expect(await page.getByRole("button", { name: "Copy key" }).isVisible()).toBe(js);
        const row = page.getByRole("row", { name: new RegExp(`deploy bot ${tag}`) });
        const cells = (await row.textContent()) ?? "";
        expect(cells).toContain(first.slice(0, 12));
        expect(cells).toMatch(/listings:write\s*events:read/);
        expect(cells).toContain("Active");
        await axeClean(tab, "showing a new key");
        // The key can do what was ticked and nothing else.
        expect(await statusWith(base, "/api/auth/me", first)).toBe(200);
        expect(await statusWith(base, "/api/messages", first)).toBe(403);

        await page
          .getByLabel(`Old key works for after rotating deploy bot ${tag}`, { exact: true })
          .selectOption({ label: "1 hour" });
        await press(page, "button", `Rotate deploy bot ${tag}`);
        expect(await notice(page)).toBe("Your API key is rotated.");
        const second = await shownKey(page);
        expect(second).toMatch(/^psm_[0-9a-f]{64}$/);
        expect(second).not.toBe(first);
        const panel = (await page.locator(".panel-highlight").textContent()) ?? "";
        expect(panel).toContain(`It replaces ${first.slice(0, 12)}…, which keeps working until`);
        expect(await page.getByRole("row", { name: new RegExp(`deploy bot ${tag}`) }).count()).toBe(2);
        await axeClean(tab, "showing a rotated key");
        if (js) {
          // The table scrolls on a phone; the page itself does not widen.
          await page.setViewportSize(VIEWPORTS.phone);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(VIEWPORTS.phone.width);
          await page.setViewportSize(VIEWPORTS.laptop);
          if (backend === "sqlite") await screenshots(page, "api-keys-rotated");
        }
        // Both work during the grace; the new one has the old one's scopes.
        expect(await statusWith(base, "/api/auth/me", first)).toBe(200);
        expect(await statusWith(base, "/api/auth/me", second)).toBe(200);
        expect(await statusWith(base, "/api/messages", second)).toBe(403);

        // Shown once: a reload of the list has no value, and still both keys.
        await page.goto("/account/keys");
        expect(await page.getByLabel("Key", { exact: true }).count()).toBe(0);
        expect(await page.getByRole("button", { name: `Rotate deploy bot ${tag}` }).count()).toBe(2);
        await axeClean(tab, "listing two keys");
        expect(tab.problems).toEqual([]);
      });
    });
  }
});
