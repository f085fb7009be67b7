import { stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BACKENDS, reportSkippedPostgres } from "../support/backends.js";
import { harnessFor } from "../support/harness.js";
import { client, expectStatus, str } from "../support/http.js";

reportSkippedPostgres("the restart test");

// Data, issued JWTs, API keys and counted views survive a SIGTERM and a new start on the same
// DATA_DIR: the generated JWT secret is kept there, the data in the database.
// The backends run side by side: each test owns its directory and database.
describe.concurrent("restart", () => {
  it.for(BACKENDS)(
    "on %s keeps data, the JWT and the API key across a SIGTERM (exit 0) and a new start",
    async (backend, { onTestFinished }) => {
      const h = harnessFor(onTestFinished);
      const dataDir = await h.dataDir();
      const { env } = await h.database(backend);
      const start = () => h.server({ dataDir, env, stopWith: "SIGKILL" });
      const first = await start();
      const before = client(first.url);
      const email = `restart-${backend}@example.com`;
      expectStatus(
        await before.post("/api/auth/signup", { body: { email, password: "survives-restart" } }),
        201,
      );
      const login = await before.post("/api/auth/login", { body: { email, password: "survives-restart" } });
      const token = str(login.body.token);
      const key = str((await before.post("/api/keys", { token, body: { name: "durable" } })).body.key?.key);
      const created = await before.post("/api/listings", {
        apiKey: key,
        body: {
          title: "Durable listing",
          description: "Outlives the process.",
          category: "legal-consulting",
        },
      });
      expectStatus(created, 201);
      const listing = created.body.listing;
      const id = str(listing?.id);
      expectStatus(await before.post(`/api/listings/${id}/view`), 200);
      // Views counted by listing pages (after each page is answered, on PostgreSQL) are stored by
      // the time an orderly stop ends.
      const pages = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${first.url}/listings/${id}`, { headers: { accept: "text/html" } }),
        ),
      );
      expect(pages.map((page) => page.status)).toEqual(Array(20).fill(200));
      await Promise.all(pages.map((page) => page.arrayBuffer()));

      expect(await first.stop("SIGTERM")).toBe(0);
      expect(first.output()).toMatch(/"msg":"stopped"/);
      // The generated secret is kept private to its owner (decisions.md: mode 0600).
      expect((await stat(join(dataDir, "jwt-secret"))).mode & 0o777).toBe(0o600);

      const second = await start();
      expect(second.url).not.toBe("");
      const after = client(second.url);
      const got = await after.get(`/api/listings/${id}`);
      expectStatus(got, 200);
      expect(got.body.listing).toEqual({ ...listing, views: 21 });
      const me = await after.get("/api/auth/me", { token });
      expectStatus(me, 200);
      expect(me.body.user).toMatchObject({ email, active_listings_count: 1 });
      expect((await after.get("/api/auth/me", { apiKey: key })).body.user?.email).toBe(email);
      expectStatus(await after.patch(`/api/listings/${id}`, { apiKey: key, body: { price: 250 } }), 200);
      expectStatus(
        await after.post("/api/auth/login", { body: { email, password: "survives-restart" } }),
        200,
      );
      const search = await after.get("/api/listings?search=durable");
      expect(search.body.items).toEqual([expect.objectContaining({ id, price: 250 })]);

      expect(await second.stop("SIGINT")).toBe(0);
    },
  );
});
