import { isIP } from "node:net";
import { forbiddenAddressReason } from "./address-policy.js";

/** The longest webhook URL accepted, in characters. */
export const MAX_URL_LENGTH = 2048;

/** A URL that passed the checks that need no DNS; `host` is bare (an IPv6 literal unbracketed). */
export type ParsedTarget =
  | { ok: true; url: URL; host: string; literal: boolean }
  | { ok: false; reason: string };

/**
 * Names that lead to a cloud provider's instance metadata or to this machine without going
 * through public DNS. Their addresses are refused anyway; refusing the names too guards
 * against a resolver (an /etc/hosts entry, a search domain) that maps them elsewhere.
 */
const FORBIDDEN_NAMES = new Set(["localhost", "metadata", "metadata.goog", "instance-data"]);
/** Suffixes reserved for local or private names (RFC 6761, RFC 6762, RFC 8375, ICANN .internal). */
const FORBIDDEN_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa"];

/**
 * Checks `raw` as a webhook URL without resolving it: an absolute http(s) URL of at most
 * 2048 characters, without credentials. WHATWG URL parsing has already normalised the host
 * (`http://2130706433/`, `http://0x7f.1/` and `http://0177.0.0.1/` all become 127.0.0.1),
 * so a literal address is judged in the one form a socket would use.
 */
export function parseTarget(raw: string, allowPrivate: boolean): ParsedTarget {
  if (raw.length > MAX_URL_LENGTH) {
    return { ok: false, reason: `The URL is longer than ${MAX_URL_LENGTH} characters.` };
  }
  const url = URL.parse(raw);
  if (!url) return { ok: false, reason: "The URL is not a valid absolute URL." };
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, reason: "The URL must use http or https." };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, reason: "The URL must not contain a user name or password." };
  }
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (host === "") return { ok: false, reason: "The URL has no host." };
  const literal = isIP(host) !== 0;
  if (allowPrivate) return { ok: true, url, host, literal };
  if (literal) {
    const reason = forbiddenAddressReason(host);
    if (reason) return { ok: false, reason: `The URL's host is ${reason}.` };
    return { ok: true, url, host, literal };
  }
  const name = host.toLowerCase().replace(/\.$/, "");
  if (FORBIDDEN_NAMES.has(name) || FORBIDDEN_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
    return { ok: false, reason: "The URL's host is a local or metadata name." };
  }
  return { ok: true, url, host, literal };
}
