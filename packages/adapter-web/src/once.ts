import { createHash } from "node:crypto";
import { isMarketplaceError, type Marketplace, type UserActor } from "@psm/core";
import type { Context } from "hono";
import { setFlash } from "./cookies.js";
import { FORM_TOKEN_FIELD } from "./csrf.js";
import type { Flash, WebEnv } from "./env.js";
import type { WebConfig } from "./options.js";

/** A write that went through: where the browser goes next, and what it is told there. */
export interface Done {
  redirect: string;
  flash?: Flash;
}

/** What a form's write ended in: done (kept and replayed) or refused with something to show (not kept). */
export type FormResult<R> = Done | { refused: R };

/**
 * The form writes that run once: the operation of their idempotency keys
 * (`web:<name>`). A union of this package's own, not the API's OperationName:
 * the pages never import adapter-http, and a form's write keeps a redirect,
 * not the API's answer, so it must not share a key with the API operation of
 * the same name.
 */
export type FormWrite =
  | "create_key"
  | "rotate_key"
  | "reply"
  | "create_listing"
  | "send_message"
  | "create_webhook"
  | "rotate_webhook_secret"
  | "test_webhook"
  | "replay_webhook"
  | "create_saved_search";

/** How long a second copy of a form waits for the first to finish before saying so. */
const WAIT_STEP_MS = 200;
const WAIT_STEPS = 50;

/** Thrown when a submission's first copy is still running after the wait; the error page says so. */
export class StillRunning extends Error {
  override readonly name = "StillRunning";
}

/** The rest of once()'s arguments. */
export interface OnceOptions<R> {
  /** The form's write: the operation its key is scoped to. */
  route: FormWrite;
  /**
   * The write. It must use only the marketplace it is given, which is bound
   * to the unit of work holding the key: SQLite runs such units alone, so a
   * call to any other marketplace from inside would wait for this one.
   */
  work: (m: Marketplace) => Promise<FormResult<R>>;
  /** Renders a refusal (invalid input, a full quota) after the unit of work has ended. */
  refused: (reason: R) => Promise<Response>;
  /**
   * Answers the copy that did the write (not a replay) in place of the redirect:
   * for what only the first answer may carry, such as a new key's value. Every
   * later copy still gets the stored redirect and its flash.
   */
  fresh?: () => Promise<Response>;
}

/**
 * Runs a form's write at most once per rendered form (the nonce of its token,
 * through core's idempotency keys), so a double click or a resent form makes
 * one listing, one message, one key. The first run's redirect is stored and
 * every copy redirects that way (Post/Redirect/Get), except the first when
 * `fresh` answers it; a copy that arrives while the first runs waits for it.
 * A refusal is not kept: the corrected form, with the same nonce, runs again.
 */
export async function once<R>(
  c: Context<WebEnv>,
  config: WebConfig,
  actor: UserActor,
  options: OnceOptions<R>,
): Promise<Response> {
  const request = {
    scope: actor.user.id,
    operation: `web:${options.route}`,
    key: c.get("formNonce"),
    fingerprint: fingerprint(c.get("form")),
    // How 1.2 named the operation, so a form it ran is still one write; drop with adapter-http's.
    formerOperation: ["POST", `web:${options.route}`],
  };
  for (let step = 0; ; step++) {
    let refusal: { reason: R } | undefined;
    try {
      const outcome = await config.marketplace.idempotency.run(request, async (m) => {
        const result = await options.work(m);
        if ("refused" in result) {
          // Nothing a refused form wrote lands, and its corrected copy runs.
          refusal = { reason: result.refused };
          return { result: "", commit: false, keep: false };
        }
        return { result: JSON.stringify(result), commit: true, keep: true };
      });
      if (refusal) return options.refused(refusal.reason);
      const done = doneOf(outcome.result);
      if (!outcome.replayed && options.fresh) return options.fresh();
      if (done.flash) setFlash(c, config, done.flash);
      return c.redirect(done.redirect, 303);
    } catch (error) {
      if (!isMarketplaceError(error, "idempotency_in_flight")) throw error;
      if (step >= WAIT_STEPS) throw new StillRunning();
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  }
}

/**
 * The redirect a kept result holds. 1.2 kept `{status: 303, body: <Done>}`
 * (migrated into that form), drop it with `formerOperation`; now the Done itself.
 */
function doneOf(result: string): Done {
  const kept = JSON.parse(result) as Done | { status: number; body: string };
  return "redirect" in kept ? kept : (JSON.parse(kept.body) as Done);
}

/** The form as sent, token aside, so the same nonce with other content is told apart. */
function fingerprint(form: Record<string, string>): string {
  const entries = Object.entries(form)
    .filter(([name]) => name !== FORM_TOKEN_FIELD)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256").update(JSON.stringify(entries)).digest("hex");
}
