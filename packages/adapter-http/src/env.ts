import type { HostVariables } from "@psm/host";

/** What the route gate leaves in the context besides the parsed body (a host variable). */
export interface BodyVariables {
  /** The body's bytes as sent, when the route gate read a JSON body (an Idempotency-Key's fingerprint). */
  bodyBytes?: Uint8Array | undefined;
}

/**
 * The Hono environment of every API route: the host's variables (request id, client address,
 * caller, rate class) and what the API's own middleware declares, put together.
 */
export interface AppEnv {
  Variables: HostVariables & BodyVariables;
}
