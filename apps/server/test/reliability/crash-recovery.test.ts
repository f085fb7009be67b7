import { POSTGRES_SKIP_REASON, testDatabaseUrl } from "@psm/adapter-postgres/testing";
import { describe, expect, test } from "vitest";
import { seedUser } from "../support/accounts.js";
import { NAMED_BACKENDS } from "../support/backends.js";
import { openCheckedStorage } from "../support/consistency.js";
import { useHarness } from "../support/harness.js";
import { call } from "../support/http.js";
import type { Outcome } from "../support/outcome.js";
import { waitFor } from "../support/wait.js";
import { listingBody, startWriteLoad } from "../support/write-load.js";

const h = useHarness();

async function viewsOf(base: string, id: string): Promise<number> {
  const answer = await call(base, "GET", `/api/listings/${id}`);
  return Number(answer.body.listing?.views);
}

/** An outcome with its times relative to the signal, for failure messages. */
const describeOutcome = (signalledAt: number) => (o: Outcome) =>
  `${o.kind === "answer" ? `${o.status} ${JSON.stringify(o.body)}` : o.code} ` +
  `(sent ${o.sentAt - signalledAt} ms, settled ${o.at - signalledAt} ms after the signal)`;

if (testDatabaseUrl() === undefined)
  test.skip(`crash recovery on PostgreSQL: ${POSTGRES_SKIP_REASON}`, () => {});

describe.each(NAMED_BACKENDS)("crash recovery on $name", ({ backend }) => {
  test("SIGKILL mid-load loses no acknowledged write and leaves a consistent database", async () => {
    const opened = await openCheckedStorage(h, backend);
    const first = await opened.start();
    const user = await seedUser(first.url, "crash@example.com", 4);
    const load = startWriteLoad(first.url, user.apiKey, user.listingIds, 8);
    await waitFor("40 acknowledged creates", () => (load.created.length >= 40 ? true : undefined));

    await first.stop("SIGKILL");
    await load.done; // every worker stops at its first unanswered request
    // Checked on what the kill left behind (SQLite: the file and its WAL, opened read-only).
    expect(await opened.problems()).toEqual([]);

    const second = await opened.start();
    const missing: string[] = [];
    for (const id of load.created) {
      const answer = await call(second.url, "GET", `/api/listings/${id}`);
      if (answer.status !== 200) missing.push(`${id}: ${answer.status}`);
    }
    expect(missing).toEqual([]);
    for (const id of user.listingIds) {
      // Every acknowledged view counted; an unanswered one may or may not have been.
      const views = await viewsOf(second.url, id);
      expect(views).toBeGreaterThanOrEqual(load.viewsAcknowledged.get(id) ?? 0);
      expect(views).toBeLessThanOrEqual(load.viewsSent.get(id) ?? 0);
    }
    const after = await call(second.url, "POST", "/api/listings", {
      apiKey: user.apiKey,
      body: listingBody(1_000_000),
    });
    expect(after.status).toBe(201);
    expect(await opened.problems()).toEqual([]);
  }, 120_000);

  test("SIGTERM mid-load drains in-flight requests: no reset, no 5xx, then exit 0", {
    timeout: 120_000,
  }, async () => {
    const opened = await openCheckedStorage(h, backend);
    const server = await opened.start();
    const user = await seedUser(server.url, "drain@example.com", 4);
    const load = startWriteLoad(server.url, user.apiKey, user.listingIds, 16, { untilRefused: true });
    // Every worker's connection accepted first: a connection still in the
    // kernel's accept queue when the listener closes is reset by the kernel,
    // whatever the server does (a load balancer's readiness drain covers that).
    // Seen as 1-3 resets in 6 runs out of 10 on a loaded machine when the signal
    // came while the first connections were still queued; none in 16 after.
    await waitFor("50 answers on 16 accepted connections", () =>
      load.outcomes.length >= 50 && load.served.size === 16 ? true : undefined,
    );

    const signalledAt = Date.now();
    const code = await server.stop("SIGTERM");
    await load.done; // each worker runs until the closed port refuses it
    expect(code).toBe(0);

    // Refused connections are requests made after the listener closed; anything
    // else that got no answer (a reset, "other side closed") or a 5xx is a failure.
    const failures = load.outcomes.filter((o) =>
      o.kind === "error" ? o.code !== "ECONNREFUSED" : o.status >= 500,
    );
    expect(failures.map(describeOutcome(signalledAt))).toEqual([]);
    const refusedEarly = load.outcomes.filter((o) => o.kind === "error" && o.sentAt < signalledAt);
    expect(refusedEarly.map(describeOutcome(signalledAt))).toEqual([]);
    // Requests in flight at the signal were answered, not dropped.
    const drained = load.outcomes.filter(
      (o) => o.kind === "answer" && o.sentAt <= signalledAt && o.at >= signalledAt,
    );
    expect(drained.length).toBeGreaterThan(0);

    // What the drained server acknowledged is stored.
    const again = await opened.start();
    for (const id of load.created.slice(-20)) {
      expect((await call(again.url, "GET", `/api/listings/${id}`)).status).toBe(200);
    }
    expect(await opened.problems()).toEqual([]);
  });
});
