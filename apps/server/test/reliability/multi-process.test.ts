import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, test } from "vitest";
import { seedUser, updatePassword } from "../support/accounts.js";
import { BACKENDS } from "../support/backends.js";
import { type Harness, harnessFor, useHarness } from "../support/harness.js";
import { call, stringAt } from "../support/http.js";
import { readOutboxes } from "../support/outbox.js";
import { type ServerProcess, SHARED_JWT_SECRET } from "../support/server-process.js";

const SLOTS = 5;
// The same on every process behind one load balancer (see the report's "Running several processes").
const SHARED = {
  JWT_SECRET: SHARED_JWT_SECRET,
  PUBLIC_URL: "https://market.example",
  LISTING_SLOTS: `personal:${SLOTS},business:50,admin:1000`,
};
// Rate limiting is being written (apps/server/src/rate-limit.ts); its case runs once that file exists.
const rateLimiting = existsSync(new URL("../../src/rate-limit.ts", import.meta.url));

/** Two processes on one database, each with a DATA_DIR (outbox) of its own, started at once (migrations race). */
async function startPair(h: Harness, url: string, env: Record<string, string>): Promise<ServerProcess[]> {
  const dirs = await Promise.all([h.dataDir(), h.dataDir()]);
  return Promise.all(
    dirs.map((dataDir) => h.server({ dataDir, env: { ...SHARED, DATABASE_URL: url, ...env } })),
  );
}

if (!BACKENDS.includes("postgres")) {
  test.skip("multi-process: two servers share one database only on PostgreSQL; set TEST_DATABASE_URL to run", () => {});
} else {
  describe("two server processes on one PostgreSQL database", () => {
    const h = useHarness("file");
    let url: string;
    let a: ServerProcess;
    let b: ServerProcess;
    const on = (i: number) => (i % 2 === 0 ? a : b).url;
    beforeAll(async () => {
      url = String((await h.database("postgres", "psm_multi")).url);
      [a, b] = (await startPair(h, url, {})) as [ServerProcess, ServerProcess];
    });

    test("a user at the slot limit cannot exceed it by racing creates on both processes", async () => {
      const user = await seedUser(a.url, "slots@example.com", SLOTS - 1);
      const body = { title: "Race", description: "Raced on two processes", category: "cybersecurity" };
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(on(i), "POST", "/api/listings", { apiKey: user.apiKey, body }),
        ),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([201, ...Array<number>(19).fill(403)]);
      const limit = await call(b.url, "GET", `/api/profiles/limit?user_id=${user.id}`, { token: user.token });
      expect(limit.body.active_listings_count).toBe(SLOTS);
    });

    test("an edit through one process: its author reads it on the other at once, anonymous readers within ANSWER_CACHE_MS", async () => {
      const user = await seedUser(a.url, "cache@example.com", 0);
      const body = { title: "Cache before", description: "Read on two processes", category: "cybersecurity" };
      const created = await call(a.url, "POST", "/api/listings", { apiKey: user.apiKey, body });
      const id = stringAt(created.body, "listing", "id") ?? "";
      const path = `/api/listings/${id}`;
      const titleOn = async (base: string, token?: string) =>
        stringAt((await call(base, "GET", path, token ? { token } : {})).body, "listing", "title");
      // b keeps its anonymous answer (1 s by default).
      expect(await titleOn(b.url)).toBe("Cache before");

      const edited = await call(a.url, "PATCH", path, { token: user.token, body: { title: "Cache after" } });
      const editedAt = Date.now();
      expect(edited.status).toBe(200);
      expect(await titleOn(b.url, user.token)).toBe("Cache after");
      let anonymous = await titleOn(b.url);
      while (anonymous !== "Cache after" && Date.now() - editedAt < 5_000) {
        await sleep(50);
        anonymous = await titleOn(b.url);
      }
      // Within 5 s (the public max-age): the default ANSWER_CACHE_MS is 1 s, the rest is slack for the machine.
      expect(anonymous).toBe("Cache after");
    });

    test("a key deactivated through one process is refused by the other at once", async () => {
      const user = await seedUser(b.url, "keys@example.com", 0);
      const created = await call(a.url, "POST", "/api/keys", { token: user.token, body: { name: "second" } });
      const id = stringAt(created.body, "key", "id") ?? "";
      const apiKey = stringAt(created.body, "key", "key") ?? "";
      expect((await call(b.url, "GET", "/api/auth/me", { apiKey })).status).toBe(200);
      expect((await call(a.url, "DELETE", `/api/keys/${id}`, { token: user.token })).status).toBe(200);
      expect((await call(b.url, "GET", "/api/auth/me", { apiKey })).status).toBe(401);
      const body = { title: "Refused", description: "With a deactivated key", category: "cybersecurity" };
      expect((await call(b.url, "POST", "/api/listings", { apiKey, body })).status).toBe(401);
    });

    test("each queued mail is sent once, and a reset token raced on both processes is consumed once", async () => {
      const emails = Array.from({ length: 6 }, (_, i) => `reset${i}@example.com`);
      for (const [i, email] of emails.entries()) {
        await call(on(i), "POST", "/api/auth/signup", { body: { email, password: "first-password" } });
      }
      // Two requests per address, one through each process: twelve queued mails.
      for (const [i, email] of emails.entries()) {
        for (const j of [i, i + 1]) {
          expect((await call(on(j), "POST", "/api/auth/reset-password", { body: { email } })).status).toBe(
            200,
          );
        }
      }
      const dirs = [a.dataDir, b.dataDir];
      let mails = await readOutboxes(dirs);
      for (let waited = 0; mails.length < 12 && waited < 30_000; waited += 250) {
        await sleep(250);
        mails = await readOutboxes(dirs);
      }
      // Both dispatchers tick every second: two more ticks would show a second send.
      await sleep(2_500);
      mails = await readOutboxes(dirs);
      expect(mails.map((m) => m.to).sort()).toEqual(emails.flatMap((e) => [e, e]).sort());
      expect(new Set(mails.map((m) => m.token)).size).toBe(12);

      const token = mails.find((m) => m.to === emails[0])?.token ?? "";
      const race = await Promise.all(
        Array.from({ length: 8 }, (_, i) => updatePassword(on(i), token, `second-password-${i}`)),
      );
      expect(race.map((r) => r.status).sort()).toEqual([200, ...Array<number>(7).fill(400)]);
      expect(
        race.filter((r) => r.status === 400).every((r) => String(r.body.code) === "reset_token_invalid"),
      ).toBe(true);
    });

    test.skipIf(!rateLimiting)(
      rateLimiting
        ? "rate limits are shared with RATE_LIMIT_STORE=postgres"
        : "rate limits are shared with RATE_LIMIT_STORE=postgres (skipped: apps/server/src/rate-limit.ts does not exist yet)",
      async ({ onTestFinished }) => {
        const limited = await startPair(harnessFor(onTestFinished), url, {
          RATE_LIMIT: "on",
          RATE_LIMIT_STORE: "postgres",
        });
        // Login allows 10 per IP per minute; unknown addresses keep the per-address limit out of it.
        const statuses: number[] = [];
        for (let i = 0; i < 12; i++) {
          const server = limited[i % 2]?.url ?? "";
          const body = { email: `nobody${i}@example.com`, password: "wrong-password" };
          statuses.push((await call(server, "POST", "/api/auth/login", { body })).status);
        }
        expect(statuses.filter((s) => s === 429)).toHaveLength(2);
      },
      60_000,
    );
  });
}
