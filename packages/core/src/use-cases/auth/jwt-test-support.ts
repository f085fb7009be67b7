/** JWT parts for the auth tests that read or forge tokens (log-in.test.ts, authenticate.test.ts). */

/** The claims of a JWT, decoded without checking anything. */
export function decodePayload(token: string): Record<string, unknown> {
  const part = token.split(".")[1] ?? "";
  const json = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(json) as Record<string, unknown>;
}

/** `value` as a JWT part (base64url JSON), for forged tokens. */
export function encodePart(value: Record<string, unknown>): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
