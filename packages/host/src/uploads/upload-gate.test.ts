import { isMarketplaceError } from "@psm/core";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createUploadGate, envelopeBytes, type UploadGate } from "./upload-gate.js";

/** An app whose one route receives an upload of `caller` through `gate`, answering the byte count. */
function appOf(gate: UploadGate, caller = "u1") {
  const app = new Hono();
  app.post("/", (c) =>
    gate.receive(c, caller, "multipart", async (bytes) => c.json({ bytes: bytes.length })),
  );
  app.onError((error, c) =>
    c.json({ code: isMarketplaceError(error) ? error.code : "internal", message: error.message }, 418),
  );
  return app;
}

/** A request body that sends `first` and then never another byte. */
function stalled(first: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(first);
    },
  });
}

describe("createUploadGate", () => {
  it("admits at most perCaller uploads of one caller, and gives each share back once", () => {
    const gate = createUploadGate({ maxFileBytes: 1024, perCaller: 2 });
    const first = gate.admit("u1");
    const second = gate.admit("u1");
    expect(() => gate.admit("u1")).toThrow(/At most 2 uploads/);
    expect(gate.admit("u2")).toBeTypeOf("function");
    first();
    first(); // a second release gives nothing more back
    const third = gate.admit("u1");
    expect(() => gate.admit("u1")).toThrow(/At most 2 uploads/);
    second();
    third();
  });

  it("cuts a stalled body, gives its bytes back, and refuses that caller's uploads for the cooldown", async () => {
    let now = 1_000_000;
    const gate = createUploadGate({ maxFileBytes: 1024, idleMs: 20, cooldownMs: 60_000 }, () => now);
    const app = appOf(gate);
    const cut = await app.request("/", {
      method: "POST",
      body: stalled(new Uint8Array(100)),
      duplex: "half",
    } as RequestInit);
    expect(await cut.json()).toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(/stalled/),
    });
    expect(gate.heldBytes()).toBe(0);
    expect(() => gate.admit("u1")).toThrow(/arrived too slowly/);
    expect(gate.admit("u2")).toBeTypeOf("function"); // another caller is not punished
    now += 60_001;
    expect(gate.admit("u1")).toBeTypeOf("function");
  });

  it("holds the bytes of bodies in progress against the process budget (503 past it)", async () => {
    const gate = createUploadGate({ maxFileBytes: 1024, budgetBytes: 150, idleMs: 50 });
    const a = appOf(gate, "a");
    const b = appOf(gate, "b");
    const holding = a.request("/", {
      method: "POST",
      body: stalled(new Uint8Array(100)),
      duplex: "half",
    } as RequestInit);
    // While a's 100 bytes are held, b's 100 more would pass the budget.
    for (let i = 0; i < 100 && gate.heldBytes() < 100; i++) await new Promise((r) => setImmediate(r));
    expect(gate.heldBytes()).toBe(100);
    const refused = await b.request("/", { method: "POST", body: new Uint8Array(100) });
    expect(await refused.json()).toMatchObject({ code: "service_unavailable" });
    await holding;
    expect(gate.heldBytes()).toBe(0);
    expect(await (await b.request("/", { method: "POST", body: new Uint8Array(100) })).json()).toEqual({
      bytes: 100,
    });
  });

  it("refuses a body over its envelope with 413, and a parse when every parse slot is busy", async () => {
    const gate = createUploadGate({ maxFileBytes: 10, concurrent: 1 });
    const big = await appOf(gate).request("/", {
      method: "POST",
      body: new Uint8Array(envelopeBytes(10, "multipart") + 1),
    });
    expect(await big.json()).toMatchObject({ code: "payload_too_large" });
    let release: () => void = () => {};
    const busy = gate.parse(() => new Promise<void>((done) => (release = done)));
    await expect(gate.parse(async () => 1)).rejects.toMatchObject({ code: "service_unavailable" });
    release();
    await busy;
    await expect(gate.parse(async () => 1)).resolves.toBe(1);
  });

  it("sizes envelopes: multipart adds room for the parts, base64 in JSON 4 bytes per 3", () => {
    expect(envelopeBytes(3 * 1024, "multipart")).toBe(3 * 1024 + 64 * 1024);
    expect(envelopeBytes(3 * 1024, "base64-json")).toBe(4 * 1024 + 64 * 1024);
  });
});
