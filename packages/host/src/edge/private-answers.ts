import type { SecurityMode } from "@psm/core";
import type { MiddlewareHandler } from "hono";
import { presentsCredentials } from "../credentials.js";

/**
 * When an answer may carry a secret or private data (decisions.md "Caching"): `always` (the
 * caller's credentials, keys, messages, admin lists, a parsed document, a page whose URL holds a
 * one-time token), or `identified`: when the caller presents a credential, or always in legacy
 * mode (profiles carry emails to their owner and admins in strict mode, to everyone in legacy).
 */
export type Privacy = "always" | "identified";

/** A path of a surface whose answers are private: `{param}` stands for one segment; it covers the paths below it. */
export interface PrivatePath {
  path: string;
  privacy: Privacy;
}

/** Whether an answer of this privacy may carry private data for this caller. */
export function isPrivate(
  privacy: Privacy | undefined,
  mode: SecurityMode,
  presentsCredentials: () => boolean,
): boolean {
  if (privacy === undefined) return false;
  return privacy === "always" || mode === "legacy" || presentsCredentials();
}

const NO_STORE = "no-store";

/** One anchored expression for a set of path templates, each covering itself and the paths below it. */
function matcher(templates: readonly string[]): (path: string) => boolean {
  if (templates.length === 0) return () => false;
  const literal = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
  const alternatives = templates.map((template) =>
    template
      .split(/\{[^}/]+\}/)
      .map(literal)
      .join("[^/]+"),
  );
  const expression = new RegExp(`^(?:${alternatives.join("|")})(?:/|$)`);
  return (path) => expression.test(path);
}

/**
 * `Cache-Control: no-store` on every answer that may carry a secret or private data, so that
 * neither a browser nor a shared cache keeps it. The paths are what the surfaces declare (the
 * API's come from its operations' records), so a new private operation is covered by its record.
 * Set before the route runs, as the security headers are, so error answers carry it too: it is
 * decided from the request (its path, and whether it presents a credential), never from the answer.
 */
export function privateAnswers(mode: SecurityMode, paths: readonly PrivatePath[]): MiddlewareHandler {
  const always = matcher(paths.filter((p) => p.privacy === "always").map((p) => p.path));
  const identified = matcher(paths.filter((p) => p.privacy === "identified").map((p) => p.path));
  return async (c, next) => {
    const path = c.req.path;
    const privacy: Privacy | undefined = always(path)
      ? "always"
      : identified(path)
        ? "identified"
        : undefined;
    if (!isPrivate(privacy, mode, () => presentsCredentials(c.req.raw.headers))) return next();
    c.header("Cache-Control", NO_STORE);
    await next();
    // A handler that answered a Response of its own, or set a policy of its own.
    if (c.res.headers.get("Cache-Control") !== NO_STORE) c.res.headers.set("Cache-Control", NO_STORE);
  };
}
