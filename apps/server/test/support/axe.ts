import AxeBuilder from "@axe-core/playwright";
import { expect } from "vitest";
import { checkPage, type Tab } from "./browser.js";

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * Zero WCAG 2.1 A/AA violations on what the page shows now (`what` names the page and its state in
 * the failure); axe needs scripts, so only with them. Checks the page's own problems either way.
 */
export async function axeClean(tab: Tab, what: string): Promise<void> {
  await checkPage(tab);
  if (!tab.javaScript) return;
  const results = await new AxeBuilder({ page: tab.page }).withTags(AXE_TAGS).analyze();
  const found = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target).join(", ")})`,
  );
  expect(found, `axe on ${what}`).toEqual([]);
}
