/** `pnpm soak`: mixed traffic against a fresh server for a bounded time, then checks against the database. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import type { TestDatabase } from "@psm/adapter-postgres/testing";
import { api, type BenchUser, makeUser, newListing, text } from "./api.js";
import { openReadDb, type ReadDb } from "./read-db.js";
import { describeRss, sampleRss } from "./rss.js";
import { freshPostgres, postgresAdminUrl } from "./seed-postgres.js";
import { type BenchServer, startBenchServer } from "./server.js";
import { overSlots, violations } from "./soak-check.js";
import { answered, newLedger } from "./soak-ledger.js";
import { runTraffic, type Soaker, type World } from "./soak-traffic.js";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "60" },
    clients: { type: "string", default: "24" },
    users: { type: "string", default: "12" },
    postgres: { type: "boolean", default: false },
  },
});
const duration = Number(args.duration);
const SLOTS = 5;
const ADMIN_SLOTS = 1000;
const ADMIN = { email: "admin@soak.example", password: "soak-admin-password" };
const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), "psm-soak-"));
  const env: Record<string, string> = {
    DATA_DIR: work,
    // Few slots, so creates keep meeting the limit while pauses and deletes free slots.
    LISTING_SLOTS: `personal:${SLOTS},business:${SLOTS},admin:${ADMIN_SLOTS}`,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  };
  let database: TestDatabase | undefined;
  let db: ReadDb | undefined;
  let server: BenchServer | undefined;
  try {
    if (args.postgres) {
      const adminUrl = postgresAdminUrl();
      if (!adminUrl) throw new Error("--postgres needs TEST_DATABASE_URL (or a postgres DATABASE_URL)");
      database = await freshPostgres(adminUrl, "psm_soak");
      env.DATABASE_URL = database.url;
    }
    server = await startBenchServer(env);
    const rss = sampleRss(server.pid);
    const base = server.url;
    log(
      `soak: ${duration} s, ${args.clients} clients, ${args.users} users, ${database ? "PostgreSQL" : "SQLite"} at ${base}`,
    );

    const login = await api(base, "POST", "/api/auth/login", { body: ADMIN });
    const token = text(login, "token");
    const adminKey = text(await api(base, "POST", "/api/keys", { token }), "key", "key");
    const admin: BenchUser = { ...ADMIN, id: text(login, "user", "id"), token, apiKey: adminKey };
    const targets: string[] = [];
    for (let i = 0; i < 10; i++) {
      targets.push(
        text(
          await api(base, "POST", "/api/listings", { apiKey: adminKey, body: newListing(i) }),
          "listing",
          "id",
        ),
      );
    }
    const users: Soaker[] = await Promise.all(
      Array.from({ length: Number(args.users) }, async (_, i) => ({
        ...(await makeUser(base, `user${i}@soak.example`)),
        listings: [],
        keys: [],
      })),
    );
    const world: World = { base, admin, targets, users, ledger: newLedger() };

    db = openReadDb(database ? { postgresUrl: database.url } : { sqliteFile: join(work, "marketplace.db") });
    const reader = db;
    const breaches = new Set<string>();
    const until = Date.now() + duration * 1000;
    // Slots sampled twice a second while the traffic runs, not only at the end.
    const watch = (async () => {
      while (Date.now() < until) {
        const facts = await reader.facts({ integrity: false });
        for (const b of overSlots(facts, Date.now(), SLOTS, ADMIN_SLOTS)) breaches.add(b);
        await sleep(500);
      }
    })();
    const began = Date.now();
    await runTraffic(world, Number(args.clients), until);
    const seconds = (Date.now() - began) / 1000;
    await watch;
    const exitCode = await server.stop();
    rss.stop();

    const facts = await db.facts();
    for (const b of overSlots(facts, Date.now(), SLOTS, ADMIN_SLOTS)) breaches.add(b);
    const found = violations(world.ledger, facts, [...breaches]);
    if (exitCode !== 0) found.push(`server exit code after SIGTERM: ${exitCode}\n${server.tail()}`);

    const { ledger } = world;
    const total = answered(ledger);
    const sumViews = [...ledger.views.values()].reduce((a, b) => a + b, 0);
    log(`\n${total} answers in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)}/s)`);
    log(
      [...ledger.answers]
        .sort()
        .map(([k, n]) => `  ${k}: ${n}`)
        .join("\n"),
    );
    log(
      `acknowledged: ${ledger.listings.size} listings created, ${sumViews} views on ${ledger.views.size} listings, ` +
        `${ledger.messages.size} messages, ${ledger.keys.size} keys, ${ledger.deletedUsers.size} users deleted`,
    );
    log(describeRss(rss.samples()));
    if (found.length === 0) {
      log(
        "checks: no 5xx, every 201 stored, every view counted once, slots never exceeded, no orphans, integrity ok",
      );
      return 0;
    }
    log(`\nVIOLATIONS:\n${found.map((v) => `- ${v}`).join("\n")}`);
    return 1;
  } finally {
    await server?.stop();
    await db?.close();
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await main();
