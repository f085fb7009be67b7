import type { LookupAddress } from "node:dns";
import { afterEach, describe, expect, it } from "vitest";
import type { HostResolver } from "./allowed-addresses.js";
import { FORBIDDEN_IPV4, FORBIDDEN_IPV6, ipv4UrlHosts, ipv6Forms } from "./test-support/address-samples.js";
import { type Receiver, startReceiver } from "./test-support/receivers.js";
import { createWebhookTransport } from "./webhook-transport.js";

const PUBLIC: LookupAddress = { address: "93.184.215.14", family: 4 };
const as = (address: string): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 });

/** A resolver that answers each name from a table and records every question. */
function resolverOf(table: Record<string, LookupAddress[]>) {
  const asked: string[] = [];
  const resolve: HostResolver = async (hostname) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses;
  };
  return { resolve, asked };
}

/** A strict transport (allowPrivate off) whose resolver knows only public.example. */
function strict(table: Record<string, LookupAddress[]> = {}) {
  const resolver = resolverOf({ "public.example": [PUBLIC], ...table });
  return { transport: createWebhookTransport({ lookup: resolver.resolve }), asked: resolver.asked };
}

const literalUrls = [
  ...FORBIDDEN_IPV4.flatMap(([v4, reason]) => [
    ...ipv4UrlHosts(v4).map((host) => [`http://${host}/hook`, reason] as const),
    ...ipv6Forms(v4).map((v6) => [`https://[${v6}]:8443/hook`, reason] as const),
  ]),
  ...FORBIDDEN_IPV6.map(([v6, reason]) => [`http://[${v6}]/hook`, reason] as const),
];

describe("vet, with private addresses forbidden", () => {
  it.each(literalUrls)("refuses %s without a DNS question", async (url, reason) => {
    const { transport, asked } = strict();
    const verdict = await transport.vet(url);
    expect(verdict).toEqual({ allowed: false, reason: expect.stringMatching(reason) });
    expect(asked).toEqual([]);
  });

  const resolvedTo = [...FORBIDDEN_IPV4, ...FORBIDDEN_IPV6].flatMap(([address, reason]) => [
    [address, reason] as const,
    ...(address.includes(":") ? [] : ipv6Forms(address).map((v6) => [v6, reason] as const)),
  ]);

  it.each(resolvedTo)(
    "refuses a name that resolves to %s, without naming the address",
    async (address, reason) => {
      const { transport } = strict({ "hook.example": [as(address)] });
      const verdict = await transport.vet("https://hook.example/in");
      expect(verdict).toEqual({ allowed: false, reason: expect.stringMatching(reason) });
      expect(verdict.allowed === false && verdict.reason).not.toContain(address);
    },
  );

  it("refuses a name with one forbidden address among public ones: a socket may pick any", async () => {
    const { transport } = strict({ "mixed.example": [PUBLIC, as("2606:4700::1"), as("10.1.2.3")] });
    expect(await transport.vet("https://mixed.example/")).toEqual({
      allowed: false,
      reason: "The URL's host resolves to a private address.",
    });
  });

  it.each([
    "http://localhost:8080/",
    "http://LOCALHOST./",
    "http://api.localhost/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://metadata.google.internal./",
    "http://metadata/",
    "http://instance-data/latest/",
    "http://printer.local/",
    "http://router.home.arpa/",
  ])("refuses the local or metadata name in %s, whatever it resolves to", async (url) => {
    const host = new URL(url).hostname;
    const { transport } = strict({ [host]: [PUBLIC] });
    expect(await transport.vet(url)).toEqual({
      allowed: false,
      reason: "The URL's host is a local or metadata name.",
    });
  });

  it.each([
    ["ftp://public.example/", /http or https/],
    ["file:///etc/passwd", /http or https/],
    ["javascript:alert(1)", /http or https/],
    ["gopher://public.example:25/", /http or https/],
    ["/relative/path", /not a valid absolute URL/],
    ["public.example/hook", /not a valid absolute URL/],
    ["http://", /not a valid absolute URL/],
    ["https://user:pass@public.example/", /user name or password/],
    ["https://user@public.example/", /user name or password/],
    [`https://public.example/${"a".repeat(2030)}`, /longer than 2048/],
    ["https://unknown.example/", /does not resolve \(ENOTFOUND\)/],
  ])("refuses %s", async (url, reason) => {
    const { transport } = strict({ "empty.example": [] });
    expect(await transport.vet(url)).toEqual({ allowed: false, reason: expect.stringMatching(reason) });
  });

  it("refuses a name that resolves to no address", async () => {
    const { transport } = strict({ "empty.example": [] });
    expect(await transport.vet("https://empty.example/")).toEqual({
      allowed: false,
      reason: "The URL's host has no address.",
    });
  });

  it.each([
    "https://public.example/hooks?x=1",
    "http://public.example:8080/",
    `https://public.example/${"a".repeat(2020)}`,
    "https://93.184.215.14/hook",
    "https://[2606:4700:4700::1111]/hook",
  ])("allows %s", async (url) => {
    expect(await strict().transport.vet(url)).toEqual({ allowed: true });
  });
});

describe("vet, with private addresses allowed (WEBHOOK_ALLOW_PRIVATE)", () => {
  const lenient = createWebhookTransport({
    allowPrivate: true,
    lookup: resolverOf({
      localhost: [as("127.0.0.1"), as("::1")],
      "metadata.google.internal": [as("169.254.169.254")],
    }).resolve,
  });

  it.each([
    "http://127.0.0.1:3000/",
    "http://2130706433/",
    "http://[::1]/",
    "http://localhost/",
    "http://10.0.0.1/",
    "http://metadata.google.internal/",
  ])("allows %s", async (url) => {
    expect(await lenient.vet(url)).toEqual({ allowed: true });
  });

  it("still refuses what is not an http(s) URL, or does not resolve", async () => {
    expect((await lenient.vet("file:///etc/passwd")).allowed).toBe(false);
    expect((await lenient.vet("http://user:pw@localhost/")).allowed).toBe(false);
    expect((await lenient.vet("http://nowhere.example/")).allowed).toBe(false);
  });
});

describe("deliver, with private addresses forbidden", () => {
  let target: Receiver;
  afterEach(() => target.close());
  const delivery = (url: string) => ({
    url,
    id: "evt_1",
    timestamp: new Date(),
    payload: "{}",
    secrets: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  });

  it("refuses a name that rebinds to 127.0.0.1 after vetting: the check is the socket's own lookup", async () => {
    target = await startReceiver();
    const answers = [[PUBLIC], [as("127.0.0.1")]];
    const asked: string[] = [];
    const transport = createWebhookTransport({
      lookup: async (hostname) => {
        asked.push(hostname);
        return answers.shift() ?? [as("127.0.0.1")];
      },
    });
    const url = `http://rebind.example:${target.port}/hook`;
    expect(await transport.vet(url)).toEqual({ allowed: true });
    const outcome = await transport.deliver(delivery(url));
    expect(outcome).toEqual({
      kind: "failed",
      status: null,
      error: "Refused: The URL's host resolves to a loopback address.",
    });
    expect(asked).toEqual(["rebind.example", "rebind.example"]);
    expect(target.requests).toHaveLength(0);
  });

  it("refuses a name whose second answer mixes in a loopback address", async () => {
    target = await startReceiver();
    const transport = createWebhookTransport({ lookup: async () => [PUBLIC, as("127.0.0.1")] });
    const outcome = await transport.deliver(delivery(`http://mixed.example:${target.port}/`));
    expect(outcome).toMatchObject({ kind: "failed", status: null, error: expect.stringMatching(/loopback/) });
    expect(target.requests).toHaveLength(0);
  });

  it.each(["127.0.0.1", "2130706433", "0x7f.1", "[::ffff:7f00:1]", "localhost"])(
    "refuses the literal or local host %s without connecting",
    async (host) => {
      target = await startReceiver();
      const transport = createWebhookTransport({ lookup: async () => [as("127.0.0.1")] });
      const outcome = await transport.deliver(delivery(`http://${host}:${target.port}/`));
      expect(outcome).toMatchObject({
        kind: "failed",
        status: null,
        error: expect.stringMatching(/^Refused: /),
      });
      expect(target.requests).toHaveLength(0);
    },
  );
});
