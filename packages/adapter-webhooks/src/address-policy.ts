import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Why an address may not receive deliveries, in words fit for a webhook's owner. */
const IPV4_REASONS: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address (this includes cloud metadata endpoints)",
  loopback: "a loopback address",
  carrierGradeNat: "a shared (carrier-grade NAT) address",
  private: "a private address",
  reserved: "a reserved or documentation address",
  as112: "a reserved (AS112) address",
  amt: "a reserved (AMT) address",
};

const IPV6_REASONS: Record<string, string> = {
  unspecified: "an unspecified address",
  linkLocal: "a link-local address",
  multicast: "a multicast address",
  loopback: "a loopback address",
  uniqueLocal: "a private (unique local) address",
  deprecatedSiteLocal: "a private (site-local) address",
  discard: "a discard-only address",
  "6to4": "a 6to4 relay address",
  teredo: "a Teredo tunnel address",
  benchmarking: "a benchmarking address",
  amt: "a reserved (AMT) address",
  as112v6: "a reserved (AS112) address",
  deprecatedOrchid: "a reserved (ORCHID) address",
  orchid2: "a reserved (ORCHID) address",
  droneRemoteIdProtocolEntityTags: "a reserved (drone ID) address",
  segmentRouting: "a segment-routing address",
  reserved: "a reserved or documentation address",
};

/** 2000::/3, the only IPv6 block IANA hands out as global unicast. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3");
/** 64:ff9b::/96, the well-known NAT64 prefix: its last 32 bits are the IPv4 address reached. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

/**
 * Why `address` (a literal IPv4 or IPv6 address, as DNS or URL parsing gives it) may not
 * receive deliveries, or null when it is a public unicast address.
 *
 * An IPv6 form that carries an IPv4 address (`::ffff:127.0.0.1`, `::ffff:0:7f00:1`, the NAT64
 * `64:ff9b::7f00:1`) is judged by that IPv4 address: NAT64 gateways translate the well-known
 * prefix, so refusing it outright would cut off IPv6-only hosts behind DNS64. Other IPv6 space
 * is allowed only inside 2000::/3 and outside every special-purpose block there (6to4 and
 * Teredo included: their tunnels could reach an embedded private address).
 */
export function forbiddenAddressReason(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return "not an IP address";
  if (family === 4) return ipv4Reason(ipaddr.IPv4.parse(address));
  const v6 = ipaddr.IPv6.parse(address);
  const range = v6.range();
  if (range === "ipv4Mapped" || range === "rfc6145") return ipv4Reason(embeddedIPv4(v6));
  if (v6.match(NAT64_WELL_KNOWN)) return ipv4Reason(embeddedIPv4(v6));
  if (range === "rfc6052") return "a local-use NAT64 address";
  if (range !== "unicast") return IPV6_REASONS[range] ?? "a special-purpose address";
  if (!v6.match(GLOBAL_UNICAST)) return "an address outside the global unicast space";
  return null;
}

function ipv4Reason(v4: ipaddr.IPv4): string | null {
  const range = v4.range();
  if (range === "unicast") return null;
  return IPV4_REASONS[range] ?? "a special-purpose address";
}

/** The IPv4 address in an IPv6 address's last 32 bits. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = v6.toByteArray().slice(12);
  return new ipaddr.IPv4(bytes);
}
