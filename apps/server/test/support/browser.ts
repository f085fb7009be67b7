import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { expect } from "vitest";
import { REPO_ROOT } from "./paths.js";

/** Debian's chromium, as CI installs it (.ci/run). */
export const CHROMIUM = "/usr/bin/chromium";

/** The flags of the issue: headless, no sandbox (CI runs as root), nothing fetched from outside. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The two widths the screenshots are taken at. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 900 },
} as const;

/** Where screenshots go: ignored by git (.tmp/). */
export const SCREENSHOTS = join(REPO_ROOT, ".tmp", "screenshots");

/** Starts the one browser of the suite; without Debian's chromium it says how to get it (never a skip). */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install it with "apt-get install -y chromium" (.ci/run does)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/** A tab of one visitor: its own cookies, JavaScript on or off, and what the page complained about. */
export interface Tab {
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy refusals and uncaught script errors seen so far. */
  problems: string[];
  /** Whether the page runs scripts (axe-core needs them: its checks wait on timers). */
  javaScript: boolean;
}

/** A fresh visitor (a context of its own) on `baseURL`. */
export async function openTab(browser: Browser, baseURL: string, javaScript: boolean): Promise<Tab> {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled: javaScript,
    viewport: VIEWPORTS.laptop,
  });
  // Shorter than a test's own timeout, so a missing control fails with its name; long enough
  // for a page on a machine shared with another test file.
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const where = message.location().url;
    // A page answered 400, 401 or 404 on purpose (a form error, a wrong password) is logged
    // by the browser as a failed load of the document itself: not a problem of the page.
    if (message.text().startsWith("Failed to load resource") && where === page.url()) return;
    problems.push(`${message.text()} (${where})`);
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return { context, page, problems, javaScript };
}

/** Runs `use` in a fresh tab of its own (see openTab), closed after it whatever happens. */
export async function inNewTab(
  browser: Browser,
  baseURL: string,
  javaScript: boolean,
  use: (tab: Tab) => Promise<void>,
): Promise<void> {
  const tab = await openTab(browser, baseURL, javaScript);
  try {
    await use(tab);
  } finally {
    await tab.context.close();
  }
}

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const checked = new Set<string>();

/** The page's state for axe: its route (ids replaced), signed in or not, and whether it shows a form error. */
async function stateOf(page: Page): Promise<string> {
  const path = new URL(page.url()).pathname.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ":id");
  const signedIn = (await page.locator("form[action='/logout']").count()) > 0;
  const errors = (await page.locator(".error-summary, .error, .field-error").count()) > 0;
  return `${path} ${signedIn ? "signed-in" : "signed-out"}${errors ? " with-error" : ""}`;
}

/**
 * Checks the page a person now sees: one h1, a title, and zero WCAG 2.1 A/AA
 * violations by axe-core. Each page state (route, signed in or out, with a
 * form error or not) is run through axe once per suite, by the first visit
 * with JavaScript on; the structural checks run every time.
 */
export async function checkPage(tab: Tab): Promise<string> {
  const { page } = tab;
  expect(await page.locator("h1").count(), page.url()).toBe(1);
  expect(await page.title()).not.toBe("");
  const state = await stateOf(page);
  // A page without scripts is the same HTML (the script only reveals the copy button), but axe
  // cannot run there: the state waits for a visit with scripts on.
  if (tab.javaScript && !checked.has(state)) {
    checked.add(state);
    const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
    const summary = results.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
    );
    expect(summary, `axe on ${state}`).toEqual([]);
  }
  expect(tab.problems, `console errors on ${page.url()}`).toEqual([]);
  return state;
}

/** The page states axe has checked so far. */
export function axeChecked(): ReadonlySet<string> {
  return checked;
}

/** Screenshots of the page at phone and laptop width, into .tmp/screenshots/NAME-phone.png and -laptop.png. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS.laptop);
}

/** What has keyboard focus: enough to recognise a control. */
export interface Focused {
  tag: string;
  id: string;
  text: string;
  name: string;
  /** Whether a focus indicator is drawn (an outline). */
  outlined: boolean;
  /** The outline as computed, for the failure message. */
  outline: string;
}

/**
 * Presses Tab until `wanted` has focus, as a keyboard user would, and checks
 * every stop on the way shows where focus is. Fails after `limit` presses.
 */
export async function tabTo(page: Page, wanted: (focused: Focused) => boolean, limit = 40): Promise<Focused> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate((): Focused => {
      const el = document.activeElement;
      if (!(el instanceof HTMLElement))
        return { tag: "", id: "", text: "", name: "", outlined: false, outline: "" };
      const style = getComputedStyle(el);
      return {
        tag: el.tagName.toLowerCase(),
        id: el.id,
        text: (el.textContent ?? "").trim().replace(/\s+/g, " "),
        name: el.getAttribute("name") ?? "",
        outlined: style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0,
        outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
      };
    });
    if (focused.tag !== "" && focused.tag !== "body") {
      expect(
        focused.outlined,
        `focus is visible on ${focused.tag}#${focused.id} "${focused.text}" (${focused.outline})`,
      ).toBe(true);
    }
    if (wanted(focused)) return focused;
  }
  throw new Error(`${limit} presses of Tab did not reach the control`);
}
