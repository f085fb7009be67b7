import type { Actor } from "@psm/core";

/** The rate-limit classes of decisions.md, as the host's limiter hooks name them. */
export type RateLimitClass = "read" | "write" | "login" | "signup" | "reset" | "upload";

/** A short message shown once on the next page (after a redirect). */
export interface Flash {
  tone: "ok" | "error";
  text: string;
}

/**
 * What the web app reads and writes in the Hono context. `clientIp` is left by
 * the host (adapter-http's client-address middleware); `actor`, `body` and
 * `rateLimitClass` are the names the host's rate limiters read, so the same
 * hooks count web forms as they count API calls.
 */
export interface WebVariables {
  /** The visitor: the user of a valid session cookie, else anonymous. */
  actor: Actor;
  /** The client address as the host resolved it (absent in-process: limiters then share one bucket). */
  clientIp: string;
  /** The class of the limiter that runs now. */
  rateLimitClass: RateLimitClass;
  /** The submitted form, for limiters that key on a field (login: `email`). */
  body: unknown;
  /** The session token of a signed-in visitor, which forms are bound to. */
  sessionToken?: string;
  /** The fields of a POSTed form whose token was valid. */
  form: Record<string, string>;
  /** The nonce of that form's token: one per rendered form, the key of its submission. */
  formNonce: string;
}

/** The Hono environment of the web app. */
export interface WebEnv {
  Variables: WebVariables;
}
