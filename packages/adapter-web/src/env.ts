import type { HostVariables, RateClass } from "@psm/host";

/** The rate-limit classes (the host's), as the pages name them. */
export type RateLimitClass = RateClass;

/** A short message shown once on the next page (after a redirect). */
export interface Flash {
  tone: "ok" | "error";
  text: string;
}

/**
 * What the web app reads and writes in the Hono context: the host's variables (`actor` is the
 * user of a valid session cookie here, else anonymous; `body` is the submitted form, which the
 * login limiter keys on) and the pages' own.
 */
export interface WebVariables extends HostVariables {
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
