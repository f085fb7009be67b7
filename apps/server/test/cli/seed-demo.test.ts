import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { logIn } from "../support/accounts.js";
import { BACKENDS, openDatabase, reportSkippedPostgres } from "../support/backends.js";
import { arr, client } from "../support/http.js";
import { startServer, stopServer } from "../support/server-process.js";
import { lines, runCli, tempDirs } from "./run-cli.js";

// `pnpm seed:demo` is `psm-server seed-demo`: run here as a command on a fresh
// database of each backend, then read back through the server's API.
const dirs = tempDirs();
afterAll(() => dirs.cleanup());

const CATEGORIES = 10;

reportSkippedPostgres("psm-server seed-demo");
describe.each(BACKENDS)("psm-server seed-demo on %s", (backend) => {
  it("fills a fresh database through the use cases, then refuses to run again and changes nothing", async () => {
    const cwd = await dirs.make();
    const dataDir = join(cwd, "data");
    const database = await openDatabase(backend, "psm_seed");
    const env = { DATA_DIR: dataDir, ...database.env };
    try {
      const first = await runCli(["seed-demo"], env, cwd);
      expect(first.code, first.stderr).toBe(0);
      expect(lines(first.stdout)).toEqual([
        expect.stringMatching(
          /^Demo data: 8 accounts \(password "demo-password"\), 20 listings in 10 categories, 4 messages; storage /,
        ),
      ]);
      const again = await runCli(["seed-demo"], env, cwd);
      expect(again.code).toBe(2);
      expect(lines(again.stderr)).toEqual([
        "seed-demo refused: the database already has accounts: seed-demo fills only a fresh one",
      ]);

      const server = await startServer({ dataDir, env: database.env });
      try {
        const api = client(server.url);
        const listings = arr((await api.get("/api/listings?limit=100")).body.items);
        expect(listings).toHaveLength(20);
        expect(new Set(listings.map((l) => l.category)).size).toBe(CATEGORIES);
        expect(listings.every((l) => typeof l.price === "number" || l.price === null)).toBe(true);
        // Every unit a price can have, so a newcomer sees "USD 140 / hour" beside "USD 6,500 fixed".
        expect(new Set(listings.map((l) => l.price_unit))).toEqual(
          new Set(["fixed", "hour", "day", "month"]),
        );
        expect(listings.some((l) => JSON.stringify(l.structured_data).includes("ai_generated"))).toBe(false);
        const profiles = arr((await api.get("/api/profiles")).body.profiles);
        expect(profiles.map((p) => p.display_name)).toEqual(
          expect.arrayContaining(["Northwind Advisory", "Kestrel Engineering", "Mara Okafor"]),
        );
        // A demo account logs in with the printed password, and finds its conversation.
        const kestrel = await logIn(server.url, "contact@kestrel-engineering.example.com", "demo-password");
        const inbox = arr((await api.get("/api/messages", { token: kestrel.token })).body.messages);
        expect(inbox.map((m) => m.content)).toEqual([
          expect.stringContaining("fixed price for about 15 endpoints"),
        ]);
      } finally {
        await stopServer(server);
      }
    } finally {
      await database.dispose();
    }
  }, 180_000);
});

describe("psm-server seed-demo refusals", () => {
  it("NODE_ENV=production: refused in one line, exit 2, nothing created", async () => {
    const cwd = await dirs.make();
    const run = await runCli(
      ["seed-demo"],
      { NODE_ENV: "production", JWT_SECRET: "a-production-secret-of-at-least-32-bytes" },
      cwd,
    );
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([
      "seed-demo refused: NODE_ENV=production (demo accounts share one known password)",
    ]);
    expect(await readdir(cwd)).toEqual([]);
  });

  it("an extra argument is a usage error", async () => {
    const cwd = await dirs.make();
    const run = await runCli(["seed-demo", "now"], {}, cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unexpected argument "now"');
  });
});
