/** What a person does on the pages in the browser: press, fill, read, sign up and log in. */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { checkPage, type Tab } from "./browser.js";

/** Clicks the button or link with this accessible name and waits for the page it leads to. */
export async function press(page: Page, role: "button" | "link", name: string | RegExp): Promise<void> {
  await page
    .getByRole(role, { name, exact: typeof name === "string" })
    .first()
    .click();
  await page.waitForLoadState("load");
}

/** Fills the control labelled `label` (its visible label text). */
export async function fill(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(value);
}

/** The text of the page's h1. */
export async function heading(page: Page): Promise<string> {
  return ((await page.locator("h1").textContent()) ?? "").trim();
}

/** The text of the notice left by the last write. */
export async function notice(page: Page): Promise<string> {
  return ((await page.locator(".notice").first().textContent()) ?? "").trim();
}

/** The text of the summary a refused form shows above its fields. */
export async function errorSummary(page: Page): Promise<string> {
  return ((await page.locator(".error-summary").textContent()) ?? "").trim();
}

/** Signs up through the sign-up form, checking both pages on the way. */
export async function signUp(tab: Tab, email: string, password: string, displayName: string): Promise<void> {
  const { page } = tab;
  await page.goto("/");
  await press(page, "link", "Sign up");
  await checkPage(tab);
  await fill(page, "Email", email);
  await fill(page, "Password", password);
  await page.getByLabel("Display name").fill(displayName);
  await press(page, "button", "Create account");
  expect(await notice(page)).toContain("Your account is ready");
  await checkPage(tab);
}

/** Logs in through the log-in form. */
export async function logIn(tab: Tab, email: string, password: string): Promise<void> {
  const { page } = tab;
  await page.goto("/");
  await press(page, "link", "Log in");
  await fill(page, "Email", email);
  await fill(page, "Password", password);
  await press(page, "button", "Log in");
  await expect(page.getByRole("button", { name: "Log out" }).count()).resolves.toBe(1);
}
