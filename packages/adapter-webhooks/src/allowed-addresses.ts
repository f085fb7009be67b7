import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { forbiddenAddressReason } from "./address-policy.js";

/** Resolves a host name to every address it has (`dns.lookup` with `all: true` by default). */
export type HostResolver = (hostname: string) => Promise<readonly LookupAddress[]>;

/** The system resolver, as sockets use it (getaddrinfo: /etc/hosts, then DNS). */
export const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** The error a connection-time lookup fails with when the host resolves to a forbidden address. */
export const FORBIDDEN_ADDRESS = "ERR_WEBHOOK_FORBIDDEN_ADDRESS";

/** A host's addresses when all are allowed; else why not, and whether it did not resolve at all. */
export type AddressCheck =
  | { ok: true; addresses: LookupAddress[] }
  | { ok: false; reason: string; code: typeof FORBIDDEN_ADDRESS | "ENOTFOUND" };

/**
 * Resolves `hostname` and answers its addresses when every one is allowed. One forbidden
 * address refuses the host: a socket may pick any of them, so a name that mixes a public and a
 * private address is as dangerous as a private one. The reason never names the address, so
 * vetting cannot be used to map internal DNS.
 */
export async function allowedAddresses(
  hostname: string,
  resolve: HostResolver,
  allowPrivate: boolean,
): Promise<AddressCheck> {
  let addresses: LookupAddress[];
  try {
    addresses = [...(await resolve(hostname))];
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const detail = typeof code === "string" ? ` (${code})` : "";
    return { ok: false, reason: `The URL's host does not resolve${detail}.`, code: "ENOTFOUND" };
  }
  if (addresses.length === 0)
    return { ok: false, reason: "The URL's host has no address.", code: "ENOTFOUND" };
  if (allowPrivate) return { ok: true, addresses };
  for (const { address } of addresses) {
    const reason = forbiddenAddressReason(address);
    if (reason)
      return { ok: false, reason: `The URL's host resolves to ${reason}.`, code: FORBIDDEN_ADDRESS };
  }
  return { ok: true, addresses };
}

/**
 * A `lookup` for `http.request` that resolves through `resolve` and vets the answer, so the
 * address a socket connects to is the one that was checked: a name that resolved to a public
 * address when it was vetted and resolves to 127.0.0.1 now (DNS rebinding) is refused here.
 * Node calls it only for names; a literal IP host is checked before the request is made.
 */
export function guardedLookup(resolve: HostResolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    allowedAddresses(hostname, resolve, allowPrivate).then(
      (check) => {
        if (!check.ok) {
          const error: NodeJS.ErrnoException = new Error(check.reason);
          error.code = check.code;
          callback(error, "");
          return;
        }
        const family = wantedFamily(options.family);
        const usable = family === 0 ? check.addresses : check.addresses.filter((a) => a.family === family);
        const first = usable[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`The URL's host has no IPv${family} address.`);
          error.code = "ENOTFOUND";
          callback(error, "");
        } else if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, ""),
    );
  };
}

function wantedFamily(family: number | "IPv4" | "IPv6" | undefined): 0 | 4 | 6 {
  if (family === 4 || family === "IPv4") return 4;
  if (family === 6 || family === "IPv6") return 6;
  return 0;
}
