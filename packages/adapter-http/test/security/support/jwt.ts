import { createHmac } from "node:crypto";
import { TEST_JWT_SECRET } from "@psm/core/testing";

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** The payload of a JWT, as its holder can read it. */
export function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split(".")[1] ?? "";
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
}

/** A JWT with any header and payload, signed HS256 with `secret` (the app's own by default). */
export function signJwt(
  payload: Record<string, unknown>,
  options: { secret?: string; header?: Record<string, unknown> } = {},
): string {
  const header = b64url(JSON.stringify(options.header ?? { alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify(payload));
  const mac = createHmac("sha256", options.secret ?? TEST_JWT_SECRET).update(`${header}.${body}`);
  return `${header}.${body}.${b64url(mac.digest())}`;
}

/** An unsigned JWT (`alg: none`, empty signature). */
export function unsignedJwt(payload: Record<string, unknown>): string {
  return `${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${b64url(JSON.stringify(payload))}.`;
}

/** A real token with its payload changed and its original signature kept. */
export function tamperedJwt(token: string, changes: Record<string, unknown>): string {
  const [header, , signature] = token.split(".");
  return `${header}.${b64url(JSON.stringify({ ...claimsOf(token), ...changes }))}.${signature}`;
}
