import { expect, it } from "vitest";
import { reportSkippedPostgres } from "../support/backends.js";
import { axeChecked, checkPage, inNewTab, tabTo } from "../support/browser.js";
import { heading, logIn, notice, press, signUp } from "../support/pages.js";
import { useWebSuite } from "../support/web-suite.js";
import { ADMIN } from "../support/world.js";
import { eightJourneys } from "./scenario/eight-journeys.js";

// The eight journeys in a real browser (Debian's chromium through
// playwright-core) against the compiled server with JavaScript on, on SQLite
// and (when TEST_DATABASE_URL is set) PostgreSQL; one more by keyboard alone,
// the admin's pages and a forged form. Every page reached is checked by
// axe-core; journeys-without-javascript.test.ts runs the eight without scripts.

reportSkippedPostgres("the browser journeys");
const suite = useWebSuite();

suite.describeSites((backend, site) => {
  eightJourneys(backend, true, suite, site);

  it("by keyboard alone: skip link, sign up, post a listing and log out", async () => {
    const email = `keys-${backend}@example.com`;
    await inNewTab(suite.browser(), site().url, true, async (tab) => {
      const { page } = tab;
      await page.goto("/");
      const skip = await tabTo(page, () => true, 1);
      expect(skip.text).toBe("Skip to main content");
      await page.keyboard.press("Enter");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");

      await page.goto("/");
      await tabTo(page, (f) => f.tag === "a" && f.text === "Sign up");
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/signup$/);
      await tabTo(page, (f) => f.id === "email");
      await page.keyboard.type(email);
      await tabTo(page, (f) => f.id === "password");
      await page.keyboard.type("keyboard-password");
      await tabTo(page, (f) => f.tag === "button" && f.text === "Create account");
      await page.keyboard.press("Enter");
      // No display name given: the account page, which suggests choosing one.
      await page.waitForURL(`${site().url}/account`);
      await page.waitForLoadState("load");
      expect(await page.locator("#choose-name").textContent()).toContain("Choose a display name");

      await tabTo(page, (f) => f.tag === "a" && f.text === "Post a listing");
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/post$/);
      await tabTo(page, (f) => f.id === "title");
      await page.keyboard.type(`Keyboard-made listing ${backend}`);
      await tabTo(page, (f) => f.id === "description", 3);
      await page.keyboard.type("Posted without a mouse.");
      await tabTo(page, (f) => f.id === "category", 3);
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      expect(await page.locator("#category").inputValue()).toBe("software-development");
      await tabTo(page, (f) => f.tag === "button" && f.text === "Publish listing", 12);
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/listings\/[0-9a-f-]{36}$/);
      await page.waitForLoadState("load");
      expect(await heading(page)).toBe(`Keyboard-made listing ${backend}`);

      await tabTo(page, (f) => f.tag === "button" && f.text === "Log out");
      await page.keyboard.press("Enter");
      await page.waitForURL(`${site().url}/`);
      await page.waitForLoadState("load");
      expect(await notice(page)).toBe("You are logged out.");
      expect(tab.problems).toEqual([]);
    });
  });

  it("an admin lists users and listings and deletes a user after a confirmation step; unknown pages are a 404 page", async () => {
    await inNewTab(suite.browser(), site().url, true, async (tab) => {
      const { page } = tab;
      const doomed = `doomed-${backend}@example.com`;
      await signUp(tab, doomed, "doomed-password-1", `Doomed ${backend}`);
      await press(page, "button", "Log out");
      await logIn(tab, ADMIN.email, ADMIN.password);
      await press(page, "link", "Admin");
      expect(await heading(page)).toBe("Admin: users");
      await checkPage(tab);
      await press(page, "link", `Delete Doomed ${backend}`);
      expect(await heading(page)).toBe("Delete this user?");
      await checkPage(tab);
      await press(page, "button", "Delete user");
      expect(await notice(page)).toBe("The user was deleted.");
      expect(await page.getByText(doomed).count()).toBe(0);
      await press(page, "link", "Listings");
      expect(await heading(page)).toBe("Admin: listings");
      await checkPage(tab);
      const missing = await page.goto("/no-such-page");
      expect(missing?.status()).toBe(404);
      expect(await heading(page)).toBe("Page not found");
      await checkPage(tab);
    });
  });

  it("a form posted from another site is refused, and changes nothing", async () => {
    await inNewTab(suite.browser(), site().url, true, async (tab) => {
      const { page } = tab;
      await signUp(tab, `csrf-${backend}@example.com`, "csrf-password-1", "Target");
      const evil = `<!doctype html><title>evil</title><form method="post" action="${site().url}/account/profile">
<input name="display_name" value="Pwned"><button>Win a prize</button></form>`;
      await page.route("http://evil.example/", (route) =>
        route.fulfill({ contentType: "text/html", body: evil }),
      );
      await page.goto("http://evil.example/");
      await page.getByRole("button", { name: "Win a prize" }).click();
      await page.waitForLoadState("load");
      expect(await heading(page)).toBe("Form refused");
      await page.goto(`${site().url}/account`);
      expect(await page.getByLabel("Display name").inputValue()).toBe("Target");
    });
  });
});

it("axe-core found no violation on any page state reached: signed out, signed in, with a form error", () => {
  const states = [...axeChecked()];
  expect(states.length).toBeGreaterThanOrEqual(20);
  for (const state of [
    "/ signed-out",
    "/ signed-in",
    "/signup signed-out with-error",
    "/login signed-out with-error",
  ]) {
    expect(states).toContain(state);
  }
  expect(states.some((state) => state.endsWith("signed-in with-error"))).toBe(true);
  expect(states.some((state) => state.startsWith("/reset-password"))).toBe(true);
});
