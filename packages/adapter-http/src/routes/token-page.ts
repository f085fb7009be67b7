import { isMarketplaceError } from "@psm/core";
import type { Context } from "hono";
import type { AppEnv } from "../env.js";
import { messagePage } from "../html.js";
import { readForm } from "../validation.js";

/** An HTML answer as OpenAPI documents it. */
export const htmlAnswer = (description: string) => ({
  description,
  content: { "text/html": { schema: { type: "string" as const } } },
});

/** Answers a page of the mailed-token flows (reset, verification). */
export function tokenPage(c: Context<AppEnv>, body: string, status: 200 | 400): Response {
  // The page carries a live token: never cache it, never leak it in a Referer.
  c.header("Cache-Control", "no-store");
  return c.html(body, status);
}

/**
 * Reads a token page's form; a body no browser sends is answered with the
 * page's 400 (as a Response) rather than a JSON error, since a person reads it.
 */
export async function readTokenForm(
  c: Context<AppEnv>,
  maxBytes: number,
): Promise<Record<string, string> | Response> {
  try {
    return await readForm(c, maxBytes);
  } catch (err) {
    if (!isMarketplaceError(err, "invalid_input")) throw err;
    const message = `The form could not be read: ${err.message}.`;
    return tokenPage(c, messagePage("Form unreadable", message, "error"), 400);
  }
}
