import { ANONYMOUS, type Listing } from "@psm/core";
import { type EncodedAnswer, pathAndQuery, type ReadOptions } from "@psm/host";
import type { Context } from "hono";
import type { JSX } from "hono/jsx/jsx-runtime";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { readCookie } from "./cookies.js";
import type { WebEnv } from "./env.js";
import type { WebConfig } from "./options.js";
import { currencyOf, type PageContext, pageHeaders, render } from "./render.js";

/** A page as its route builds it: the view, its status, and the listings it shows (their expiry ends it). */
export interface PublicPage {
  view: (ctx: PageContext) => JSX.Element;
  status?: ContentfulStatusCode;
  listings: readonly Listing[];
}

/**
 * Answers a page every visitor who is not signed in sees alike (browse, search, a listing): kept as
 * rendered in the pages' answer cache (the host's, under its rules: a listing write through this
 * process ends every kept page, an expiring listing ends its pages, none is older than its maximum
 * age, kept from its second read), so a hot page costs one read and one render per maximum age, not
 * one per visitor, and a page asked for once is not kept at all.
 * Concurrent visitors of a page being read share that read. A signed-in visitor, or one with a
 * notice waiting (a flash), gets a page of their own, as does everyone when the cache is off.
 *
 * A kept page is shown to everyone, so it must hold nothing of one visitor's: rendering one that
 * asks for a form token fails loudly rather than handing that token to the next visitor.
 */
export async function publicPage(
  c: Context<WebEnv>,
  config: WebConfig,
  build: () => Promise<PublicPage>,
  options?: ReadOptions,
): Promise<Response> {
  const pages = config.pages;
  if (pages === undefined || !seenAlike(c, config)) {
    const page = await build();
    return render(c, config, page.view, page.status);
  }
  const key = pathAndQuery(c.req.url);
  const kept = pages.get(key);
  if (kept !== undefined) return answer(c, kept);
  const read = await pages.read(
    key,
    async () => {
      const page = await build();
      const ctx: PageContext = {
        actor: ANONYMOUS,
        user: undefined,
        path: c.req.path,
        flash: undefined,
        formToken: () => {
          throw new Error(`a page kept for every visitor cannot carry a form token (${c.req.path})`);
        },
        currency: currencyOf(config),
      };
      const bytes = Buffer.from(`<!doctype html>${await page.view(ctx)}`);
      const status = page.status ?? 200;
      const encoded: EncodedAnswer = status === 200 ? { bytes, tag: "" } : { bytes, tag: "", status };
      return { answer: encoded, body: { items: page.listings } };
    },
    options,
  );
  return answer(c, read);
}

/** Whether this visitor sees the page everyone not signed in sees. */
function seenAlike(c: Context<WebEnv>, config: WebConfig): boolean {
  const actor = c.get("actor");
  return (actor === undefined || actor.kind === "anonymous") && readCookie(c, config, "flash") === undefined;
}

/** A kept (or shared) page, with the headers a rendered one carries (and, having no form, no cookie). */
function answer(c: Context<WebEnv>, page: EncodedAnswer): Response {
  pageHeaders(c);
  const status = (page.status ?? 200) as ContentfulStatusCode;
  return c.body(page.bytes, status, { "Content-Type": "text/html; charset=UTF-8" });
}
