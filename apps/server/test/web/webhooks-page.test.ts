import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { reportSkippedPostgres } from "../support/backends.js";
import { checkPage, inNewTab, screenshots, type Tab, VIEWPORTS } from "../support/browser.js";
import { errorSummary, fill, heading, notice, press, signUp } from "../support/pages.js";
import { useWebSuite } from "../support/web-suite.js";
import {
  type Received,
  signedWith,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../support/webhook-receiver.js";

// The webhooks pages of 1.3.0 in a real browser against the compiled server, with JavaScript on
// and off: create (refused, then its secret shown once), the webhook's page with a test event
// delivered to a real receiver on this machine and verified with the secret shown, rotation, off
// and on, replay and delete. As on the keys page, one route shows several states, so each is run
// through axe here.
//
// The receiver listens on 127.0.0.1, which the server refuses unless it runs with
// WEBHOOK_ALLOW_PRIVATE=true (decisions.md 1.3.0 "Webhooks"): this file needs the suite's servers
// started with it, and with the webhook relay running.

reportSkippedPostgres("the webhooks pages in a browser");
// The receiver is on 127.0.0.1: the server may reach it only with private addresses allowed.
const suite = useWebSuite({ WEBHOOK_ALLOW_PRIVATE: "true" });

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/** How long the server's relay may take to deliver a queued event. */
const DELIVERY_WAIT_MS = 20_000;

let receiver: WebhookReceiver | undefined;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

/** The receiver's URL for one test, so each test reads only its own deliveries. */
function hookUrl(tag: string): string {
  if (!receiver) throw new Error("the receiver did not start");
  return `http://127.0.0.1:${receiver.port}/hook-${tag}`;
}

/** Zero WCAG 2.1 A/AA violations on what the page shows now; axe needs scripts, so only with them. */
async function axeClean(tab: Tab, state: string): Promise<void> {
  await checkPage(tab);
  if (!tab.javaScript) return;
  const results = await new AxeBuilder({ page: tab.page }).withTags(AXE_TAGS).analyze();
  const found = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join(", ")})`,
  );
  expect(found, `axe on the webhooks pages, ${state}`).toEqual([]);
}

/** At a phone's width the page does not scroll sideways (a wide table scrolls in its own box). */
async function fitsAPhone(page: Page): Promise<void> {
  await page.setViewportSize(VIEWPORTS.phone);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(VIEWPORTS.phone.width);
  await page.setViewportSize(VIEWPORTS.laptop);
}

/** The secret the page shows once. */
function shownSecret(page: Page): Promise<string> {
  return page.getByLabel("Signing secret", { exact: true }).inputValue();
}

/** The deliveries the receiver got at `path`, once there are `count` (the server's relay sends them). */
async function deliveriesAt(path: string, count: number): Promise<Received[]> {
  const deadline = Date.now() + DELIVERY_WAIT_MS;
  for (;;) {
    const got = (receiver?.received ?? []).filter((r) => r.path === path);
    if (got.length >= count || Date.now() > deadline) return got;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Reloads the webhook's page until its delivery log has `count` rows in `state`. */
async function logShows(page: Page, state: string, count: number): Promise<void> {
  const rows = page.locator("tbody tr", { hasText: state });
  const deadline = Date.now() + DELIVERY_WAIT_MS;
  while ((await rows.count()) < count && Date.now() < deadline) {
    await page.waitForTimeout(300);
    await page.reload();
  }
  expect(await rows.count()).toBe(count);
}

suite.describeSites((backend, site) => {
  for (const js of [true, false]) {
    it(`with JavaScript ${js ? "on" : "off"}: creates a webhook, tests, rotates, replays and deletes it`, async () => {
      const tag = `${backend}-${js ? "js" : "nojs"}`;
      const url = hookUrl(tag);
      const path = new URL(url).pathname;
      await inNewTab(suite.browser(), site().url, js, async (tab) => {
        const { page } = tab;
        await signUp(tab, `hooks-page-${tag}@example.com`, "hooks-page-password-1", `Hooks ${tag}`);
        await page.goto("/account");
        await press(page, "link", "webhooks");
        expect(await heading(page)).toBe("Webhooks");
        expect(await page.getByText("You have no webhooks.").count()).toBe(1);
        await axeClean(tab, "without webhooks");

        // No type ticked: refused beside the group, what was typed kept.
        await fill(page, "URL", url);
        await fill(page, "Description (optional)", `receiver ${tag}`);
        await press(page, "button", "Create webhook");
        expect(await errorSummary(page)).toContain("Event types must name at least one event type");
        expect(await page.getByLabel("URL", { exact: true }).inputValue()).toBe(url);
        await axeClean(tab, "with a refused form");

        await page.getByLabel("message.received", { exact: true }).check();
        await page.getByLabel("listing.created", { exact: true }).check();
        await press(page, "button", "Create webhook");
        expect(await notice(page)).toBe("Your webhook is created.");
        const first = await shownSecret(page);
        expect(first).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
        expect(await page.getByRole("button", { name: "Copy secret" }).isVisible()).toBe(js);
        const row = page.getByRole("row", { name: new RegExp(path) });
        const cells = (await row.textContent()) ?? "";
        expect(cells).toMatch(/listing\.created\s*message\.received/);
        expect(cells).toContain(`receiver ${tag}`);
        expect(cells).toContain("Enabled");
        // Never in the address or a cookie.
        expect(page.url()).not.toContain(first.slice(6));
        const cookies = await tab.context.cookies();
        for (const cookie of cookies) expect(cookie.value).not.toContain(first.slice(6));
        await axeClean(tab, "showing a new secret");
        if (js) await fitsAPhone(page);

        // Shown once: the list again has no secret.
        await page.goto("/account/webhooks");
        expect(await page.getByLabel("Signing secret", { exact: true }).count()).toBe(0);

        await press(page, "link", url);
        expect(await heading(page)).toBe("Webhook");
        expect(await page.getByText("No deliveries yet").count()).toBe(1);
        await axeClean(tab, "a webhook without deliveries");
        await press(page, "button", "Send a test event");
        expect(await notice(page)).toContain("A test event is on its way");
        const [test] = await deliveriesAt(path, 1);
        expect(test, "the test event reached the receiver").toBeDefined();
        if (!test) return;
        expect(signedWith(first, test)).toBe(true);
        expect(JSON.parse(test.body)).toMatchObject({ type: "webhook.test" });
        await logShows(page, "Succeeded", 1);
        const logRow = (await page.locator("tbody tr").first().textContent()) ?? "";
        expect(logRow).toContain("webhook.test");
        expect(logRow).toContain(String(test.headers["webhook-id"]));
        await axeClean(tab, "a webhook with a delivery");
        if (js) {
          await fitsAPhone(page);
          if (backend === "sqlite") await screenshots(page, "webhook-deliveries");
        }

        await press(page, "button", "Rotate secret");
        expect(await notice(page)).toBe("The webhook’s secret is rotated.");
        const second = await shownSecret(page);
        expect(second).toMatch(/^whsec_/);
        expect(second).not.toBe(first);
        const panel = (await page.locator(".panel-highlight").textContent()) ?? "";
        expect(panel).toContain("The old secret keeps signing beside it for 24 hours");
        await axeClean(tab, "showing a rotated secret");

        await press(page, "button", "Turn off");
        expect(await notice(page)).toContain("The webhook is off");
        expect(await page.getByText("Off by you").count()).toBeGreaterThan(0);
        expect(await page.getByRole("button", { name: "Send a test event" }).count()).toBe(0);
        await press(page, "button", "Turn on");
        expect(await notice(page)).toContain("The webhook is on");

        // The replay goes out with the same webhook-id, signed by both secrets during the grace.
        await page.getByLabel("Replay events from", { exact: true }).selectOption({ label: "The last day" });
        await press(page, "button", "Replay events");
        expect(await notice(page)).toBe("1 event is queued to be delivered again.");
        const both = await deliveriesAt(path, 2);
        expect(both).toHaveLength(2);
        const replay = both[1];
        expect(replay?.headers["webhook-id"]).toBe(test.headers["webhook-id"]);
        expect(replay && signedWith(second, replay)).toBe(true);
        expect(replay && signedWith(first, replay)).toBe(true);
        await logShows(page, "Succeeded", 2);

        await press(page, "link", "Delete webhook");
        expect(await heading(page)).toBe("Delete this webhook?");
        await axeClean(tab, "asking to delete");
        await press(page, "button", "Delete webhook");
        expect(await notice(page)).toBe("The webhook is deleted.");
        expect(await page.getByText("You have no webhooks.").count()).toBe(1);
        expect(tab.problems).toEqual([]);
      });
    });
  }
});
