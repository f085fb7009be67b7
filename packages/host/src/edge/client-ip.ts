import { BlockList, isIP } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";

/** What clientIp() leaves in the context. */
export interface ClientIpVariables {
  /** The caller's address as clientIp() resolved it (UNKNOWN_CLIENT when nothing tells). */
  clientIp: string;
}

/** Reads the TCP peer's address of a request, or undefined when there is no socket. */
export type SocketAddress = (c: Context) => string | undefined;

/**
 * The client of a request with no socket and no believed proxy (`app.request()`
 * in tests, a runtime without connection info). Such requests share one
 * rate-limit bucket: failing shared rather than unlimited.
 */
export const UNKNOWN_CLIENT = "unknown";

/**
 * The peer address under @hono/node-server (its getConnInfo). Other runtimes
 * and in-process requests have no `incoming` binding: undefined, never a throw.
 */
export const nodeSocketAddress: SocketAddress = (c) => {
  const env: unknown = c.env;
  if (typeof env !== "object" || env === null || !("incoming" in env)) return undefined;
  return getConnInfo(c).remote.address;
};

/** An address without brackets, port or IPv4-mapped prefix; null when it is not an IP address. */
export function normalizeAddress(raw: string): string | null {
  let address = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed?.[1]) address = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(address))
    address = address.slice(0, address.lastIndexOf(":"));
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) address = mapped[1];
  return isIP(address) === 0 ? null : address.toLowerCase();
}

/**
 * The trusted proxies (TRUST_PROXY): addresses or CIDR ranges. Throws naming
 * the first entry that is neither, so a typo stops the server at start.
 */
export function parseTrustedProxies(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [base = "", bits, extra] = entry.trim().split("/");
    const address = normalizeAddress(base);
    const family = address === null ? 0 : isIP(address);
    const prefix = bits === undefined ? undefined : Number(bits);
    const max = family === 4 ? 32 : 128;
    const validPrefix = prefix === undefined || (/^\d+$/.test(bits ?? "") && prefix <= max);
    if (address === null || extra !== undefined || !validPrefix) {
      throw new Error(`trustProxy: "${entry}" is not an IP address or CIDR range`);
    }
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return list;
}

function isTrusted(trusted: BlockList, address: string): boolean {
  return trusted.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
}

/**
 * The client address: the socket peer, unless the peer is a trusted proxy;
 * then X-Forwarded-For is walked from the right (each proxy appends the
 * address it saw) past every trusted proxy, and the first address that is not
 * one is the client. Entries left of it were written by the client and are
 * never believed. A malformed entry ends the walk at the last good hop.
 */
export function resolveClientIp(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: BlockList,
): string {
  const socket = peer === undefined ? null : normalizeAddress(peer);
  if (socket === null) return UNKNOWN_CLIENT;
  if (!isTrusted(trusted, socket) || !forwardedFor) return socket;
  let client = socket;
  const hops = forwardedFor.split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i] ?? "");
    if (hop === null) return client;
    client = hop;
    if (!isTrusted(trusted, hop)) return hop;
  }
  return client;
}

/** Resolves the client address once per request into `c.var.clientIp`, for limiters and logs. */
export function clientIp(options: {
  trustProxy: readonly string[];
  socketAddress: SocketAddress;
}): MiddlewareHandler<{ Variables: ClientIpVariables }> {
  const trusted = parseTrustedProxies(options.trustProxy);
  if (options.trustProxy.length > 0) {
    return async (c, next) => {
      c.set("clientIp", resolveClientIp(options.socketAddress(c), c.req.header("x-forwarded-for"), trusted));
      await next();
    };
  }
  // No proxy is trusted: the peer is the client. Its normal form is kept for
  // the next request, which on a kept-alive connection comes from the same peer.
  let lastPeer: string | undefined;
  let lastClient = UNKNOWN_CLIENT;
  return async (c, next) => {
    const peer = options.socketAddress(c);
    if (peer !== lastPeer) {
      lastClient = peer === undefined ? UNKNOWN_CLIENT : (normalizeAddress(peer) ?? UNKNOWN_CLIENT);
      lastPeer = peer;
    }
    c.set("clientIp", lastClient);
    await next();
  };
}
