import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { createWebhookTransport } from "./webhook-transport.js";

const PUBLIC: LookupAddress[] = [{ address: "93.184.216.34", family: 4 }];

describe("vet: one DNS lookup per host a minute, and never an unbounded wait", () => {
  it("answers a host's second check from memory, without a lookup", async () => {
    let lookups = 0;
    const transport = createWebhookTransport({
      lookup: async () => {
        lookups++;
        return PUBLIC;
      },
    });
    expect(await transport.vet("https://hooks.example.com/a")).toEqual({ allowed: true });
    expect(await transport.vet("https://hooks.example.com/b?x=1")).toEqual({ allowed: true });
    expect(lookups).toBe(1);
    expect(await transport.vet("https://other.example.com/")).toEqual({ allowed: true });
    expect(lookups).toBe(2);
  });

  it("remembers a refusal too", async () => {
    let lookups = 0;
    const transport = createWebhookTransport({
      lookup: async () => {
        lookups++;
        return [{ address: "10.0.0.8", family: 4 }];
      },
    });
    const first = await transport.vet("https://intranet.example.com/");
    expect(first.allowed).toBe(false);
    expect(await transport.vet("https://intranet.example.com/other")).toEqual(first);
    expect(lookups).toBe(1);
  });

  it("refuses a name that does not resolve within vetTimeoutMs", async () => {
    const transport = createWebhookTransport({ vetTimeoutMs: 20, lookup: () => new Promise(() => {}) });
    expect(await transport.vet("https://slow.example.com/")).toEqual({
      allowed: false,
      reason: "its host name did not resolve in time",
    });
  });
});
