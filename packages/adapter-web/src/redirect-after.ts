import { type ErrorCode, isMarketplaceError } from "@psm/core";
import type { Context } from "hono";
import { setFlash } from "./cookies.js";
import type { Flash, WebEnv } from "./env.js";
import type { WebConfig } from "./options.js";

/** What a button's write tells the person: once it is done, and for each refusal the page expects. */
export interface WriteOutcome<T> {
  done: Flash | ((result: T) => Flash);
  refusals?: Partial<Record<ErrorCode, Flash>>;
}

/**
 * The answer to a button that changes one thing (delete, deactivate, pause, log out): runs `write`
 * and redirects to `to` (PRG) with the notice of its outcome. Any refusal the outcome does not name
 * goes to the error page.
 */
export async function redirectAfter<T>(
  c: Context<WebEnv>,
  config: WebConfig,
  to: string,
  write: () => Promise<T>,
  outcome: WriteOutcome<T>,
): Promise<Response> {
  let flash: Flash;
  try {
    const result = await write();
    flash = typeof outcome.done === "function" ? outcome.done(result) : outcome.done;
  } catch (error) {
    const refusal = isMarketplaceError(error) ? outcome.refusals?.[error.code] : undefined;
    if (refusal === undefined) throw error;
    flash = refusal;
  }
  setFlash(c, config, flash);
  return c.redirect(to, 303);
}

const LISTING_DELETED: Flash = { tone: "ok", text: "The listing was deleted." };

/**
 * A listing's delete button, the author's or an admin's: a form sent twice finds the listing gone,
 * which is what was asked, so it is told the same.
 */
export const LISTING_DELETE: WriteOutcome<unknown> = {
  done: LISTING_DELETED,
  refusals: { listing_not_found: LISTING_DELETED },
};
