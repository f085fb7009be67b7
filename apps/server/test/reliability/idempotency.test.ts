import { POSTGRES_SKIP_REASON, testDatabaseUrl } from "@psm/adapter-postgres/testing";
import { describe, expect, test } from "vitest";
import { seedUser } from "../support/accounts.js";
import { BACKENDS, NAMED_BACKENDS } from "../support/backends.js";
import { openCheckedStorage } from "../support/consistency.js";
import { useHarness } from "../support/harness.js";
import { call } from "../support/http.js";
import { listingBody } from "../support/write-load.js";

const h = useHarness();

async function listingsOf(base: string, token: string, userId: string): Promise<string[]> {
  const page = await call(base, "GET", `/api/listings?user_id=${userId}&status=all&limit=100`, { token });
  return (page.body.items as unknown as { id: string }[]).map((l) => l.id);
}

/** Retries a keyed create until it is not 409, waiting as Retry-After says. */
async function retryKeyed(base: string, apiKey: string, key: string, body: Record<string, unknown>) {
  for (let attempt = 0; attempt < 30; attempt++) {
    const answer = await call(base, "POST", "/api/listings", {
      apiKey,
      body,
      headers: { "Idempotency-Key": key },
    });
    if (answer.status !== 409) return answer;
    await new Promise((resolve) =>
      setTimeout(resolve, Number(answer.headers.get("Retry-After") ?? 1) * 1000),
    );
  }
  throw new Error(`key ${key} still in flight after 30 attempts`);
}

if (testDatabaseUrl() === undefined)
  test.skip(`idempotency on PostgreSQL: ${POSTGRES_SKIP_REASON}`, () => {});

describe.each(NAMED_BACKENDS)("Idempotency-Key on $name, real server process", ({ backend }) => {
  test("100 concurrent creates with one key: exactly one listing, every other answer 409 or the identical replay", async () => {
    const opened = await openCheckedStorage(h, backend);
    const server = await opened.start();
    const user = await seedUser(server.url, "burst@example.com", 0);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        call(server.url, "POST", "/api/listings", {
          apiKey: user.apiKey,
          body: listingBody(1),
          headers: { "Idempotency-Key": "one-key" },
        }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(answers.filter((a) => a.status !== 201 && a.status !== 409)).toEqual([]);
    expect(created.filter((a) => a.headers.get("Idempotent-Replayed") === null)).toHaveLength(1);
    expect(new Set(created.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(await listingsOf(server.url, user.token, user.id)).toHaveLength(1);
  }, 180_000);

  test("SIGKILL during keyed creates, restart, retry each key: exactly one listing per key", async () => {
    const opened = await openCheckedStorage(h, backend);
    const first = await opened.start();
    const user = await seedUser(first.url, "killed@example.com", 0);
    const keys = Array.from({ length: 12 }, (_, i) => `crash-${i}`);
    const inFlight = keys.map((key, i) =>
      call(first.url, "POST", "/api/listings", {
        apiKey: user.apiKey,
        body: listingBody(i),
        headers: { "Idempotency-Key": key },
      }).catch(() => null),
    );
    // Killed while the creates are arriving: some commit, some claim and die, some never arrive.
    await new Promise((resolve) => setTimeout(resolve, 15));
    await first.stop("SIGKILL");
    const before = await Promise.all(inFlight);
    const acknowledged = before.filter((a) => a?.status === 201).map((a) => String(a?.body.listing?.id));

    const second = await opened.start();
    const retried = await Promise.all(
      keys.map((key, i) => retryKeyed(second.url, user.apiKey, key, listingBody(i))),
    );
    expect(retried.map((a) => a.status)).toEqual(keys.map(() => 201));
    const ids = retried.map((a) => String(a.body.listing?.id));
    for (const id of acknowledged) expect(ids).toContain(id);
    const stored = await listingsOf(second.url, user.token, user.id);
    expect(stored.sort()).toEqual([...ids].sort());
    expect(await opened.problems()).toEqual([]);
  }, 120_000);
});

describe.skipIf(!BACKENDS.includes("postgres"))("Idempotency-Key across processes on one PostgreSQL", () => {
  test("two processes, one key, 60 concurrent creates: exactly one listing", async () => {
    const opened = await openCheckedStorage(h, "postgres");
    const [a, b] = [await opened.start(), await opened.start()];
    const user = await seedUser(a.url, "shared@example.com", 0);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(i % 2 === 0 ? a.url : b.url, "POST", "/api/listings", {
          apiKey: user.apiKey,
          body: listingBody(7),
          headers: { "Idempotency-Key": "across" },
        }),
      ),
    );
    expect(answers.filter((x) => x.status !== 201 && x.status !== 409)).toEqual([]);
    expect(
      answers.filter((x) => x.status === 201 && x.headers.get("Idempotent-Replayed") === null),
    ).toHaveLength(1);
    expect(await listingsOf(b.url, user.token, user.id)).toHaveLength(1);
  }, 180_000);
});
