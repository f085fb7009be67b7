import { describe, expect, test } from "vitest";
import { normalizeAddress, parseTrustedProxies, resolveClientIp, UNKNOWN_CLIENT } from "./client-ip.js";

const trusted = parseTrustedProxies(["10.0.0.1", "10.1.0.0/16", "fd00::/8"]);
const none = parseTrustedProxies([]);

describe("resolveClientIp", () => {
  test("the socket peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(resolveClientIp("203.0.113.9", "1.2.3.4", none)).toBe("203.0.113.9");
    expect(resolveClientIp("::ffff:203.0.113.9", undefined, none)).toBe("203.0.113.9");
  });

  test("an untrusted peer's X-Forwarded-For is ignored", () => {
    expect(resolveClientIp("198.51.100.7", "10.0.0.1, 1.2.3.4", trusted)).toBe("198.51.100.7");
  });

  test("from a trusted peer: walk right to left past trusted proxies", () => {
    expect(resolveClientIp("10.0.0.1", "203.0.113.5", trusted)).toBe("203.0.113.5");
    expect(resolveClientIp("10.0.0.1", "6.6.6.6, 203.0.113.5, 10.1.2.3", trusted)).toBe("203.0.113.5");
    expect(resolveClientIp("fd00::1", "2001:db8::1, fd12::9", trusted)).toBe("2001:db8::1");
  });

  test("a spoofed left-most entry never wins over the hop a proxy appended", () => {
    expect(resolveClientIp("10.0.0.1", "10.0.0.1, 198.51.100.1", trusted)).toBe("198.51.100.1");
  });

  test("a malformed hop ends the walk at the last good one; all trusted gives the left-most", () => {
    expect(resolveClientIp("10.0.0.1", "garbage, 10.1.0.5", trusted)).toBe("10.1.0.5");
    expect(resolveClientIp("10.0.0.1", "10.1.0.5, 10.1.0.6", trusted)).toBe("10.1.0.5");
    expect(resolveClientIp("10.0.0.1", "", trusted)).toBe("10.0.0.1");
  });

  test("no socket address: the shared unknown client", () => {
    expect(resolveClientIp(undefined, "1.2.3.4", trusted)).toBe(UNKNOWN_CLIENT);
  });
});

describe("addresses", () => {
  test("normalised: brackets, ports, IPv4-mapped, case", () => {
    expect(normalizeAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("203.0.113.9:8080")).toBe("203.0.113.9");
    expect(normalizeAddress("::FFFF:10.0.0.1")).toBe("10.0.0.1");
    expect(normalizeAddress("example.com")).toBeNull();
  });

  test("TRUST_PROXY entries must be addresses or CIDR ranges", () => {
    for (const bad of ["proxy.local", "10.0.0.0/33", "10.0.0.0/8/1", "fd00::/129", "10.0.0.0/x"]) {
      expect(() => parseTrustedProxies([bad])).toThrow(/not an IP address or CIDR range/);
    }
    expect(() => parseTrustedProxies(["127.0.0.1", "::1", "192.168.0.0/16"])).not.toThrow();
  });
});
