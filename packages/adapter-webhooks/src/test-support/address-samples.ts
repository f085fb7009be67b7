/** Tables of forbidden addresses and the spellings a URL may give them, for the SSRF tests. */

/** One sample or more of every IPv4 range a delivery must not reach, with the reason's key word. */
export const FORBIDDEN_IPV4: [address: string, reason: RegExp][] = [
  ["0.0.0.0", /unspecified/],
  ["0.1.2.3", /unspecified/],
  ["127.0.0.1", /loopback/],
  ["127.255.255.254", /loopback/],
  ["10.0.0.1", /private/],
  ["10.255.255.255", /private/],
  ["172.16.0.1", /private/],
  ["172.31.255.254", /private/],
  ["192.168.1.1", /private/],
  ["169.254.169.254", /link-local.*metadata/],
  ["169.254.0.1", /link-local/],
  ["100.64.0.1", /carrier-grade NAT/],
  ["100.100.100.200", /carrier-grade NAT/], // Alibaba Cloud's metadata endpoint
  ["100.127.255.254", /carrier-grade NAT/],
  ["224.0.0.1", /multicast/],
  ["239.255.255.250", /multicast/],
  ["255.255.255.255", /broadcast/],
  ["240.0.0.1", /reserved/],
  ["192.0.0.8", /reserved/],
  ["192.0.2.1", /reserved/],
  ["198.18.0.1", /reserved/],
  ["198.51.100.7", /reserved/],
  ["203.0.113.9", /reserved/],
];

/** IPv6 ranges that carry no IPv4 address. */
export const FORBIDDEN_IPV6: [address: string, reason: RegExp][] = [
  ["::", /unspecified/],
  ["::1", /loopback/],
  ["fe80::1", /link-local/],
  ["febf:ffff::1", /link-local/],
  ["fc00::1", /unique local/],
  ["fd00:ec2::254", /unique local/], // AWS's IPv6 metadata endpoint
  ["fec0::1", /site-local/],
  ["ff02::1", /multicast/],
  ["ff0e::101", /multicast/],
  ["100::1", /discard/],
  ["2001:db8::1", /documentation/],
  ["2001::1", /Teredo/],
  ["2002:7f00:1::1", /6to4/],
  ["64:ff9b:1::a00:1", /local-use NAT64/],
  ["::7f00:1", /outside the global unicast/], // IPv4-compatible, deprecated
  ["4000::1", /outside the global unicast/],
  ["3fff::1", /documentation/],
];

/** The IPv6 spellings of an IPv4 address that a stack may route to that IPv4 address. */
export function ipv6Forms(v4: string): string[] {
  const [a, b, c, d] = v4.split(".").map(Number) as [number, number, number, number];
  const high = ((a << 8) | b).toString(16);
  const low = ((c << 8) | d).toString(16);
  return [
    `::ffff:${v4}`,
    `::ffff:${high}:${low}`,
    `::ffff:0:${v4}`,
    `64:ff9b::${v4}`,
    `64:ff9b::${high}:${low}`,
  ];
}

/**
 * The spellings of an IPv4 address that WHATWG URL parsing turns into that address: dotted,
 * one 32-bit number in decimal or hex, octets in hex or octal, the two- and three-part forms.
 */
export function ipv4UrlHosts(v4: string): string[] {
  const [a, b, c, d] = v4.split(".").map(Number) as [number, number, number, number];
  const whole = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  return [
    v4,
    String(whole),
    `0x${whole.toString(16)}`,
    [a, b, c, d].map((n) => `0x${n.toString(16)}`).join("."),
    [a, b, c, d].map((n) => `0${n.toString(8)}`).join("."),
    `0x${a.toString(16)}.${(b << 16) | (c << 8) | d}`,
    `${a}.${b}.${(c << 8) | d}`,
  ];
}
