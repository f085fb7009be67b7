import { describe, expect, it, vi } from "vitest";
import type { ResetRequest } from "../../ports/mail-queue-repository.js";
import type { Repositories } from "../../ports/repositories.js";
import { setup, signUpQuietly, tokenOf, withUser } from "./reset-mail-test-support.js";
import { MAX_WAITING_RESET_REQUESTS, RESET_REQUESTS_PER_ROUND } from "./reset-requests.js";

const PEEKED = new Error("peeked");

/** The requests waiting in storage, left waiting: taken in a unit of work that then rolls back. */
async function waiting(repos: Repositories): Promise<ResetRequest[]> {
  let seen: ResetRequest[] = [];
  await repos.unitOfWork
    .run(async (tx) => {
      seen = await tx.mailQueue.takeResetRequests(MAX_WAITING_RESET_REQUESTS + 10);
      throw PEEKED;
    })
    .catch((error: unknown) => {
      if (error !== PEEKED) throw error;
    });
  return seen;
}

describe("reset requests wait in storage for a mail round", () => {
  it("a request noted before a restart is sent by the new marketplace's first round", async () => {
    const before = await withUser();
    await before.market.auth.requestPasswordReset({ email: "reset@example.com" });
    expect(await waiting(before.deps.repos)).toEqual([
      { id: expect.any(String), email: "reset@example.com", at: before.deps.clock.now() },
    ]);

    // A new process on the same storage: a fresh module graph, so nothing the
    // first marketplace's modules hold in memory reaches the second.
    vi.resetModules();
    const { setupWith } = await import("../../testing/use-case-kit.js");
    const { createTestDeps } = await import("../../testing/fakes/deps.js");
    const after = setupWith(
      createTestDeps({ repos: before.deps.repos, settings: { publicUrl: "https://market.example.com" } }),
    );
    await expect(after.market.mail.dispatchDue()).resolves.toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(after.deps.mailer.ofKind("password_reset").map((mail) => mail.to)).toEqual(["reset@example.com"]);
    await after.market.auth.updatePassword({ token: tokenOf(after), newPassword: "brand-new-pass" });
    expect(await waiting(after.deps.repos)).toEqual([]);
    expect(before.deps.mailer.sent).toEqual([]);
  });

  it("an unknown address is noted like a known one, then dropped by the round without a mail", async () => {
    const s = setup();
    await s.market.auth.requestPasswordReset({ email: "Nobody@Example.com" });
    expect(await waiting(s.deps.repos)).toEqual([
      { id: expect.any(String), email: "nobody@example.com", at: s.deps.clock.now() },
    ]);
    await expect(s.market.mail.dispatchDue()).resolves.toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(s.deps.mailer.sent).toEqual([]);
    expect(await waiting(s.deps.repos)).toEqual([]);
  });

  it(`a round resolves at most ${RESET_REQUESTS_PER_ROUND} requests, oldest first; the rest wait`, async () => {
    const s = setup();
    await signUpQuietly(s, "last@example.com");
    for (let i = 0; i < RESET_REQUESTS_PER_ROUND; i++) {
      await s.market.auth.requestPasswordReset({ email: `nobody-${i}@example.com` });
    }
    await s.market.auth.requestPasswordReset({ email: "last@example.com" });
    await expect(s.market.mail.dispatchDue()).resolves.toMatchObject({ sent: 0 });
    expect((await waiting(s.deps.repos)).map((r) => r.email)).toEqual(["last@example.com"]);
    await expect(s.market.mail.dispatchDue()).resolves.toMatchObject({ sent: 1 });
  });

  it(`past ${MAX_WAITING_RESET_REQUESTS} waiting requests, one more is answered alike and dropped`, async () => {
    const s = await withUser();
    const now = s.deps.clock.now();
    for (let i = 0; i < MAX_WAITING_RESET_REQUESTS; i++) {
      const id = s.deps.ids.newId(now);
      await s.deps.repos.mailQueue.noteResetRequest(
        { id, email: `flood-${i}@example.com`, at: now },
        MAX_WAITING_RESET_REQUESTS,
      );
    }
    await expect(s.market.auth.requestPasswordReset({ email: "reset@example.com" })).resolves.toBeUndefined();
    const left = await s.deps.repos.mailQueue.takeResetRequests(MAX_WAITING_RESET_REQUESTS + 10);
    expect(left).toHaveLength(MAX_WAITING_RESET_REQUESTS);
    expect(left.some((r) => r.email === "reset@example.com")).toBe(false);
    // Once the flood has drained, requests are noted again.
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    await expect(s.market.mail.dispatchDue()).resolves.toMatchObject({ sent: 1 });
  });

  it("the queued mail job carries the request's id, so one request is one mail", async () => {
    const s = await withUser();
    await s.market.auth.requestPasswordReset({ email: "reset@example.com" });
    const [request] = await waiting(s.deps.repos);
    await s.market.mail.dispatchDue();
    expect(await s.deps.repos.mailQueue.findById(request!.id)).toMatchObject({
      userId: s.user.id,
      kind: "password_reset",
      status: "sent",
    });
  });
});
