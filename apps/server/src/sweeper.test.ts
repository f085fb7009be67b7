import { createMarketplace } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { startSweeper } from "./sweeper.js";

describe("startSweeper", () => {
  it("sweeps expired idempotency keys and sessions at start and reports what it removed", async () => {
    const deps = createTestDeps();
    const now = deps.clock.now();
    await deps.repos.idempotency.claim(
      { id: "old", fingerprint: "f", owner: "o", leaseUntil: now, expiresAt: now },
      now,
    );
    const reports: unknown[] = [];
    const sweeper = startSweeper(createMarketplace(deps), {
      onReport: (report) => reports.push(report),
      onError: (error) => reports.push(error),
    });
    await sweeper.stop();
    expect(reports).toEqual([{ idempotencyKeys: 1, sessions: 0, events: 0, deliveries: 0, oauth: 0 }]);
  });

  it("reports a failed sweep and keeps the process going", async () => {
    const failure = new Error("database gone");
    const errors: unknown[] = [];
    const sweeper = startSweeper(
      { maintenance: { sweepExpired: () => Promise.reject(failure) } },
      { onReport: () => {}, onError: (error) => errors.push(error) },
    );
    await sweeper.stop();
    expect(errors).toEqual([failure]);
  });
});
