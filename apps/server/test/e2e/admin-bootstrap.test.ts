import { describe, expect, it } from "vitest";
import { BACKENDS, reportSkippedPostgres } from "../support/backends.js";
import { harnessFor } from "../support/harness.js";
import { client, expectStatus, str } from "../support/http.js";
import type { ServerProcess } from "../support/server-process.js";

reportSkippedPostgres("the ADMIN_EMAIL bootstrap test");

const OPERATOR = { ADMIN_EMAIL: "ops@acme.test", ADMIN_PASSWORD: "operator-secret-9" };

/** The JSON log lines a server printed at level warn (pino: 40). */
function warnings(server: ServerProcess): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.level === 40);
}

// Whoever registered the operator's address before the operator configured
// ADMIN_EMAIL must not become the admin, nor keep anything of the account.
// Each case starts the server twice: slow machines need more than the default 30 s.
describe.concurrent("ADMIN_EMAIL bootstrap", { timeout: 180_000 }, () => {
  it.for(BACKENDS)(
    "on %s takes a pre-registered address back from the attacker, with a warning",
    async (backend, { onTestFinished }) => {
      const h = harnessFor(onTestFinished);
      const dataDir = await h.dataDir();
      const db = await h.database(backend);
      const start = (env: Record<string, string> = {}) =>
        h.server({ dataDir, env: { ...db.env, ...env }, stopWith: "SIGKILL" });

      // Before ADMIN_EMAIL is set, an attacker claims the address and arms it.
      const first = await start();
      const attacker = client(first.url);
      const credentials = { email: OPERATOR.ADMIN_EMAIL, password: "attacker-pass" };
      expectStatus(await attacker.post("/api/auth/signup", { body: credentials }), 201);
      const token = str((await attacker.post("/api/auth/login", { body: credentials })).body.token);
      const key = str((await attacker.post("/api/keys", { token, body: { name: "kept" } })).body.key?.key);
      expect(await first.stop("SIGTERM")).toBe(0);

      // The operator starts the server with ADMIN_EMAIL and ADMIN_PASSWORD.
      const second = await start(OPERATOR);
      const api = client(second.url);
      const login = await api.post("/api/auth/login", {
        body: { email: OPERATOR.ADMIN_EMAIL, password: OPERATOR.ADMIN_PASSWORD },
      });
      expectStatus(login, 200);
      expect(login.body.user).toMatchObject({ is_admin: true, email_verified: true });
      const adminToken = str(login.body.token);
      expectStatus(await api.get("/api/admin/users", { token: adminToken }), 200);

      expectStatus(await api.post("/api/auth/login", { body: credentials }), 401);
      expectStatus(await api.get("/api/auth/me", { token }), 401);
      expectStatus(await api.get("/api/auth/me", { apiKey: key }), 401);
      expectStatus(await api.get("/api/admin/users", { token }), 401);

      const [warning, ...others] = warnings(second);
      expect(others).toEqual([]);
      expect(warning).toMatchObject({
        msg: expect.stringMatching(/ADMIN_EMAIL/),
        userId: expect.any(String),
      });
      expect(second.output()).not.toContain(OPERATOR.ADMIN_PASSWORD);
    },
  );

  it("creates the admin with a proven address, then leaves it as it is", async ({ onTestFinished }) => {
    const h = harnessFor(onTestFinished);
    const dataDir = await h.dataDir();
    const start = () => h.server({ dataDir, env: OPERATOR, stopWith: "SIGKILL" });
    const first = await start();
    const login = await client(first.url).post("/api/auth/login", {
      body: { email: OPERATOR.ADMIN_EMAIL, password: OPERATOR.ADMIN_PASSWORD },
    });
    expectStatus(login, 200);
    expect(login.body.user).toMatchObject({ is_admin: true, email_verified: true });
    expect(await first.stop("SIGTERM")).toBe(0);

    // A later start finds the admin: no warning, and its session stays.
    const second = await start();
    const token = str(login.body.token);
    expectStatus(await client(second.url).get("/api/admin/users", { token }), 200);
    expect([...warnings(first), ...warnings(second)]).toEqual([]);
  });
});
