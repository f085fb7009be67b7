import { isIP } from "node:net";
import { type Actor, normalizeEmail, sha256Hex } from "@psm/core";
import type { Context } from "hono";
import { UNKNOWN_CLIENT } from "../edge/client-ip.js";
import type { HostEnv } from "../env.js";

/** The eight 16-bit groups of an IPv6 address, "::" expanded. */
function ipv6Groups(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right];
}

/**
 * The rate-limit key of an address. An IPv6 client usually holds a whole /64
 * (and can pick any address in it), so IPv6 is limited per /64; IPv4 per address.
 */
export function addressKey(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const prefix = ipv6Groups(ip)
    .slice(0, 4)
    .map((group) => Number.parseInt(group || "0", 16).toString(16));
  return `${prefix.join(":")}::/64`;
}

/** The client-IP key of a request (c.var.clientIp, set by createHttpApp). */
export function ipKeyOf(c: Context<HostEnv>): string {
  return `ip:${addressKey(c.get("clientIp") ?? UNKNOWN_CLIENT)}`;
}

/** The caller key: the user id when authenticated, else the client IP. */
export function callerKeyOf(c: Context<HostEnv>): string {
  const actor: Actor | undefined = c.get("actor");
  return actor?.kind === "user" ? `user:${actor.user.id}` : ipKeyOf(c);
}

/** The hashed key of a normalised address, as failed logins count it. */
function addressKeyOf(email: string): string | undefined {
  const normalized = normalizeEmail(email);
  if (normalized.length === 0 || normalized.length > 254 || !normalized.includes("@")) return undefined;
  return `email:${sha256Hex(normalized)}`;
}

/**
 * The login target of a request: the normalised email of the body, hashed so
 * a shared store never holds addresses in clear. Undefined when the body names
 * no plausible address (validation answers 400 then; nothing to count).
 * Failures per account, from every IP, count under this key.
 */
export function loginAddressKeyOf(c: Context<HostEnv>): string | undefined {
  const body: unknown = c.get("body");
  if (typeof body !== "object" || body === null || !("email" in body)) return undefined;
  const { email } = body;
  if (typeof email !== "string") return undefined;
  return addressKeyOf(email);
}

/**
 * One client's attempts at one account: the login target and the client-IP
 * key together, so that one client's guesses at an address lock out that
 * client only. Undefined when the body names no plausible address.
 */
export function loginAttemptKeyOf(c: Context<HostEnv>): string | undefined {
  const address = loginAddressKeyOf(c);
  return address === undefined ? undefined : `${address}:${ipKeyOf(c)}`;
}

/**
 * The account of a signed-in caller confirming their password, keyed as a login at its address
 * is: a wrong current password is a failed login of that account. Undefined for anyone else.
 */
export function confirmAddressKeyOf(c: Context<HostEnv>): string | undefined {
  const actor: Actor | undefined = c.get("actor");
  return actor?.kind === "user" ? addressKeyOf(actor.user.email) : undefined;
}

/** One client's confirmations for one account, as loginAttemptKeyOf keys one client's logins. */
export function confirmAttemptKeyOf(c: Context<HostEnv>): string | undefined {
  const address = confirmAddressKeyOf(c);
  return address === undefined ? undefined : `${address}:${ipKeyOf(c)}`;
}
