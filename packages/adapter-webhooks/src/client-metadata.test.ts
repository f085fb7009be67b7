import type { LookupAddress } from "node:dns";
import { afterEach, describe, expect, it } from "vitest";
import type { HostResolver } from "./allowed-addresses.js";
import { createClientMetadataSource } from "./client-metadata.js";
import { type Answer, type Receiver, startReceiver } from "./test-support/receivers.js";

const DOCUMENT = { client_id: "x", client_name: "Agent", redirect_uris: ["http://127.0.0.1/cb"] };
const json =
  (body: string, type = "application/json"): Answer =>
  (response) =>
    response.writeHead(200, { "content-type": type }).end(body);

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});
async function receiver(answer: Answer): Promise<Receiver> {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

/** A resolver from a table (what a public DNS would answer). */
const resolverOf =
  (table: Record<string, LookupAddress[]>): HostResolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses;
  };

describe("Client ID Metadata Documents, with private addresses forbidden", () => {
  const lookup = resolverOf({
    "public.example": [{ address: "93.184.215.14", family: 4 }],
    "inside.example": [{ address: "10.1.2.3", family: 4 }],
  });
  const source = createClientMetadataSource({ lookup, timeoutMs: 2_000 });

  it.each([
    ["http://127.0.0.1:8080/client.json", /loopback/],
    ["https://[::1]/client.json", /loopback/],
    ["https://192.168.1.20/client.json", /private/],
    ["https://169.254.169.254/latest/meta-data", /link-local|metadata/],
    ["https://localhost/client.json", /local or metadata name/],
    ["http://public.example/client.json", /https/],
    ["https://public.example/", /path/],
    ["https://user:pw@public.example/client.json", /user name/],
  ])("refuses %s before any connection", async (url, reason) => {
    expect(await source.fetch(url)).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  it("refuses a name that resolves to a private address, at connection time", async () => {
    expect(await source.fetch("https://inside.example/client.json")).toEqual({
      ok: false,
      reason: expect.stringMatching(/Refused: .*private/),
    });
  });
});

describe("Client ID Metadata Documents, bounded and cached (private allowed, as in development)", () => {
  it("fetches a JSON document once and answers it from the cache after", async () => {
    const server = await receiver(json(JSON.stringify(DOCUMENT)));
    const source = createClientMetadataSource({ allowPrivate: true });
    const url = `${server.origin}/client.json`;
    expect(await source.fetch(url)).toEqual({ ok: true, document: DOCUMENT });
    expect(await source.fetch(url)).toEqual({ ok: true, document: DOCUMENT });
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([["GET", "/client.json"]]);
  });

  it("refuses an oversized document, one that is not JSON, and a redirect (never followed)", async () => {
    const source = createClientMetadataSource({ allowPrivate: true, maxBytes: 1024 });
    const big = await receiver(json(JSON.stringify({ ...DOCUMENT, padding: "x".repeat(4096) })));
    expect(await source.fetch(`${big.origin}/big.json`)).toEqual({
      ok: false,
      reason: expect.stringMatching(/larger than 1024/),
    });
    const html = await receiver(json("<html></html>", "text/html"));
    expect(await source.fetch(`${html.origin}/page`)).toEqual({
      ok: false,
      reason: expect.stringMatching(/application\/json/),
    });
    const moved = await receiver((response) =>
      response.writeHead(302, { location: "http://169.254.169.254/" }).end(),
    );
    expect(await source.fetch(`${moved.origin}/moved`)).toEqual({
      ok: false,
      reason: expect.stringMatching(/302/),
    });
    expect(moved.requests).toHaveLength(1);
  });

  it("a document that never comes is given up at the deadline, while other fetches go on", async () => {
    const silent = await receiver(() => {
      // Never answers.
    });
    const quick = await receiver(json(JSON.stringify(DOCUMENT)));
    const source = createClientMetadataSource({ allowPrivate: true, timeoutMs: 1_500 });
    let slowSettled = false;
    const slow = source.fetch(`${silent.origin}/slow.json`).then((answer) => {
      slowSettled = true;
      return answer;
    });
    expect(await source.fetch(`${quick.origin}/client.json`)).toEqual({ ok: true, document: DOCUMENT });
    expect(slowSettled).toBe(false);
    expect(await slow).toEqual({ ok: false, reason: "No answer within 1500 ms." });
  });

  it("refuses beyond its fetches in flight rather than queueing them", async () => {
    const silent = await receiver(() => {});
    const source = createClientMetadataSource({ allowPrivate: true, timeoutMs: 1_000, maxInFlight: 1 });
    const first = source.fetch(`${silent.origin}/a.json`);
    expect(await source.fetch(`${silent.origin}/b.json`)).toEqual({
      ok: false,
      reason: expect.stringMatching(/Too many/),
    });
    await first;
  });
});
