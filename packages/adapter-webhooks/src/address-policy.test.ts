import { describe, expect, it } from "vitest";
import { forbiddenAddressReason } from "./address-policy.js";
import { FORBIDDEN_IPV4, FORBIDDEN_IPV6, ipv6Forms } from "./test-support/address-samples.js";

describe("forbiddenAddressReason", () => {
  it.each(FORBIDDEN_IPV4)("refuses %s", (address, reason) => {
    expect(forbiddenAddressReason(address)).toMatch(reason);
  });

  it.each(FORBIDDEN_IPV4.flatMap(([v4, reason]) => ipv6Forms(v4).map((v6) => [v6, reason] as const)))(
    "refuses %s, an IPv6 form of a forbidden IPv4 address",
    (address, reason) => {
      expect(forbiddenAddressReason(address)).toMatch(reason);
    },
  );

  it.each(FORBIDDEN_IPV6)("refuses %s", (address, reason) => {
    expect(forbiddenAddressReason(address)).toMatch(reason);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "172.32.0.1", // just past 172.16/12
    "100.128.0.1", // just past 100.64/10
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    ...ipv6Forms("8.8.8.8"), // mapped, and NAT64 to a public address (DNS64 on an IPv6-only host)
  ])("allows the public unicast address %s", (address) => {
    expect(forbiddenAddressReason(address)).toBeNull();
  });

  it("refuses what is not an IP address at all", () => {
    expect(forbiddenAddressReason("example.com")).toBe("not an IP address");
    expect(forbiddenAddressReason("2130706433")).toBe("not an IP address");
  });
});
