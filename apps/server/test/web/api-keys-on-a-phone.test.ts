import { join } from "node:path";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { reportSkippedPostgres } from "../support/backends.js";
import { inNewTab, SCREENSHOTS, VIEWPORTS } from "../support/browser.js";
import { fill, heading, notice, press, signUp } from "../support/pages.js";
import { useWebSuite } from "../support/web-suite.js";

// The keys page opened on a 390 px phone, as issue 32 found it: 492 px wide, the
// Deactivate button off-screen. Whether a control can be used is asked of the
// browser: its centre must be inside the screen and be the control itself
// (not clipped by a scrolling table, not covered).

reportSkippedPostgres("the API keys page on a phone");
const suite = useWebSuite();
const PHONE = VIEWPORTS.phone;
const phoneShot = join(SCREENSHOTS, "api-keys-phone.png");

/** Whether the button named `name` is on screen and is what a tap at its centre reaches. */
async function tappable(page: Page, name: string): Promise<{ box: string; reached: boolean }> {
  const button = page.getByRole("button", { name, exact: true });
  // Bring its row into view by scrolling the page vertically only (never a table sideways).
  const top = await button.evaluate((el) => el.getBoundingClientRect().top);
  await page.evaluate((y) => window.scrollBy(0, y - 200), top);
  return button.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {
      box: `${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)}`,
      reached: r.left >= 0 && r.right <= window.innerWidth && hit !== null && el.contains(hit),
    };
  });
}

suite.describeSites((backend, site) => {
  for (const js of [true, false]) {
    it(`at 390 px with JavaScript ${js ? "on" : "off"}: no wider than the screen, Deactivate and Rotate on it`, async () => {
      const tag = `${backend}-${js ? "js" : "nojs"}`;
      await inNewTab(suite.browser(), site().url, js, async (tab) => {
        const { page } = tab;
        await page.setViewportSize(PHONE);
        await signUp(tab, `phone-keys-${tag}@example.com`, "phone-keys-password", `Phone ${tag}`);
        for (const name of [`a rather long key name for the phone ${tag}`, "ci"]) {
          await page.goto("/account/keys");
          await fill(page, "Name", name);
          await press(page, "button", "Create key");
          expect(await notice(page)).toBe("Your API key is created.");
        }
        await page.goto("/account/keys");
        expect(await heading(page)).toBe("API keys");
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, "the page's width").toBeLessThanOrEqual(PHONE.width);
        for (const name of [`a rather long key name for the phone ${tag}`, "ci"]) {
          for (const action of ["Deactivate", "Rotate"]) {
            const where = await tappable(page, `${action} ${name}`);
            expect(where.reached, `${action} ${name} at ${where.box}`).toBe(true);
          }
        }
        if (backend === "sqlite" && js) await page.screenshot({ path: phoneShot, fullPage: true });
        // And it works from there.
        await page.getByRole("button", { name: "Deactivate ci", exact: true }).click();
        expect(await notice(page)).toContain("deactivated");
        expect(tab.problems).toEqual([]);
      });
    });
  }
});
