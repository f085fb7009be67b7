/**
 * Property-based fuzzing of every endpoint in core's capability table (both
 * modes): generated path ids, query strings, credentials, headers and bodies.
 * Properties: no answer is a 5xx; every error body is exactly
 * {error: string, code: string}; a refused request writes nothing.
 * The seed is fixed and the runs bounded, so CI replays the same requests.
 */
import { type Capability, capabilityTable } from "@psm/adapter-http/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { requestsFor } from "./support/requests.js";
import { createWorld } from "./support/world.js";

/** Fixed, so a failure reproduces; change it only on purpose. */
const FUZZ_SEED = 20_240_607;
/** Runs per endpoint and mode: 31 endpoints x 2 modes x 60 ≈ 3700 requests, well under 30 s. */
const FUZZ_RUNS = 60;

/** The error shape of decisions.md, and nothing else. */
function isErrorBody(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const keys = Object.keys(body).sort();
  return (
    keys.length === 2 &&
    keys[0] === "code" &&
    keys[1] === "error" &&
    typeof Reflect.get(body, "error") === "string" &&
    typeof Reflect.get(body, "code") === "string"
  );
}

function fuzz(mode: "strict" | "legacy", cap: Capability): void {
  test(`${cap.method} ${cap.path}`, async () => {
    const world = await createWorld(mode);
    await fc.assert(
      fc.asyncProperty(requestsFor(cap, world), async ({ method, path, call }) => {
        const before = await world.snapshot();
        const res = await world.t.request(method, path, call);
        const text = await res.text();
        expect(res.status, `${method} ${path} -> ${text.slice(0, 200)}`).toBeLessThan(500);
        if (res.status < 400) return;
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        expect(isErrorBody(body), `${method} ${path} -> ${res.status} ${text.slice(0, 200)}`).toBe(true);
        expect(await world.snapshot(), `${method} ${path} -> ${res.status} wrote`).toBe(before);
      }),
      { seed: FUZZ_SEED, numRuns: FUZZ_RUNS, endOnFailure: true },
    );
  });
}

for (const mode of ["strict", "legacy"] as const) {
  describe(`fuzz (${mode})`, () => {
    for (const cap of capabilityTable(mode)) fuzz(mode, cap);
  });
}

describe("the fuzz properties can fail", () => {
  test("the error-shape check refuses extra or missing keys", () => {
    expect(isErrorBody({ error: "x", code: "y" })).toBe(true);
    for (const bad of [
      { error: "x" },
      { error: "x", code: "y", stack: "at" },
      { error: 1, code: "y" },
      "x",
      null,
    ]) {
      expect(isErrorBody(bad)).toBe(false);
    }
  });

  test("the snapshot sees a write", async () => {
    const world = await createWorld("strict");
    const before = await world.snapshot();
    await world.t.request("POST", `/api/listings/${world.listingId}/view`);
    expect(await world.snapshot()).not.toBe(before);
  });
});
