/**
 * What lies on disk and what caches may keep: SQLite files 0600 whatever the umask, and
 * Cache-Control: no-store on every answer with a secret or private data.
 */
import { readdirSync, readlinkSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { type HostileServer, startHostileServer } from "./support/hostile-server.js";
import { type Target, target } from "./support/target.js";

describe("SQLite files are private to the server's user", () => {
  test("the composed server creates marketplace.db, -wal and -shm 0600, even under umask 000", async () => {
    const previous = process.umask(0o000); // the child inherits it
    let server: HostileServer;
    try {
      server = await startHostileServer("sqlite");
    } finally {
      process.umask(previous);
    }
    try {
      await server.account(); // writes: a user, then a login
      const fds = `/proc/${server.pid}/fd`;
      const database = readdirSync(fds)
        .map((fd) => {
          try {
            return readlinkSync(join(fds, fd));
          } catch {
            return "";
          }
        })
        .find((path) => path.endsWith("/marketplace.db"));
      expect(database).toBeDefined();
      for (const path of [`${database}`, `${database}-wal`, `${database}-shm`]) {
        expect((statSync(path).mode & 0o777).toString(8), path).toBe("600");
      }
    } finally {
      await server.stop();
    }
  }, 180_000);
});

describe("Cache-Control: no-store on every answer with a secret or private data", () => {
  const noStore = (res: Response) => res.headers.get("cache-control");

  test("each private route, on success and on error", async () => {
    const t: Target = target();
    const user = await t.signUp();
    const admin = await t.admin();
    const key = await t.apiKey(user);
    const listing = await t.listing(admin);
    const form = new FormData();
    form.set("file", new File(["Pen test, fixed price"], "brief.txt", { type: "text/plain" }));
    const cases: [string, string, Parameters<Target["request"]>[2], number][] = [
      ["POST", "/api/auth/signup", { body: { email: "fresh@example.com", password: "secret-1" } }, 201],
      ["POST", "/api/auth/signup", { body: { email: "not-an-email", password: "secret-1" } }, 400],
      ["POST", "/api/auth/login", { body: { email: user.email, password: user.password } }, 200],
      ["POST", "/api/auth/login", { body: { email: user.email, password: "wrong-password" } }, 401],
      ["GET", "/api/auth/me", { token: user.token }, 200],
      ["GET", "/api/auth/me", { key: key.key }, 200],
      ["GET", "/api/auth/me", {}, 200],
      ["GET", "/api/auth/me", { key: "psm_wrong" }, 401],
      ["GET", "/api/keys", { token: user.token }, 200],
      ["GET", "/api/keys", {}, 401],
      ["POST", "/api/keys", { token: user.token, body: { name: "ci" } }, 200],
      ["POST", "/api/keys", { token: user.token, body: { name: "" } }, 400],
      ["DELETE", `/api/keys/${key.id}`, { token: user.token }, 200],
      ["DELETE", "/api/keys/01900000-0000-7000-8000-000000000000", { token: user.token }, 404],
      [
        "POST",
        "/api/messages",
        { token: user.token, body: { listing_id: listing.id, receiver_id: admin.id, content: "Hi" } },
        201,
      ],
      ["GET", "/api/messages", { token: admin.token }, 200],
      ["GET", "/api/messages", {}, 401],
      ["GET", "/api/admin/users", { token: admin.token }, 200],
      ["GET", "/api/admin/posts", { token: admin.token }, 200],
      ["GET", "/api/admin/users", { token: user.token }, 403],
      ["DELETE", "/api/admin/users/01900000-0000-7000-8000-000000000000", { token: admin.token }, 404],
      ["PUT", "/api/users/update", { token: user.token, body: { display_name: "Ops" } }, 200],
      ["PUT", "/api/users/update", { body: { display_name: "Ops" } }, 401],
      ["POST", "/api/parse-pdf", { token: user.token, raw: form }, 200],
      [
        "POST",
        "/api/profiles/sync",
        { token: user.token, body: { id: user.id, email: user.email, display_name: "Ops 2" } },
        200,
      ],
    ];
    for (const [method, path, call, status] of cases) {
      const res = await t.request(method, path, call);
      const what = `${method} ${path} (${status})`;
      expect(res.status, what).toBe(status);
      expect(noStore(res), what).toBe("no-store");
    }
    // Routes whose exact answers belong to other parts of 1.2.0: whatever they answer is private.
    for (const [method, path, call] of [
      ["POST", "/api/auth/verify-email", { body: { token: "not-a-token" } }],
      ["POST", "/api/auth/reset-password", { body: { email: user.email } }],
      ["POST", "/api/auth/update-password", { body: { token: "not-a-token", new_password: "secret-2" } }],
    ] as const) {
      expect(noStore(await t.request(method, path, call)), `${method} ${path}`).toBe("no-store");
    }
  });

  test("profiles: no-store whenever the answer can hold emails; an anonymous strict answer holds none", async () => {
    for (const mode of ["strict", "legacy"] as const) {
      const t = target({ mode });
      const user = await t.signUp();
      for (const call of [{}, { token: user.token }, { key: (await t.apiKey(user)).key }]) {
        const res = await t.request("GET", "/api/profiles", call);
        const body = await t.json<{ profiles: { email?: string }[] }>(res);
        const shown = body.profiles.some((profile) => profile.email !== undefined);
        const what = `${mode} ${JSON.stringify(Object.keys(call))}`;
        if (shown || mode === "legacy" || Object.keys(call).length > 0)
          expect(noStore(res), what).toBe("no-store");
        // Anonymous strict answers hold no email: shared caches may keep them briefly (conditional.ts).
        else expect(noStore(res), what).toBe("public, max-age=5");
      }
    }
  });

  test("public answers stay cacheable", async () => {
    const t = target();
    expect(noStore(await t.request("GET", "/api/listings")), "/api/listings").toBe("public, max-age=5");
    for (const path of ["/api/capabilities", "/healthz"]) {
      expect(noStore(await t.request("GET", path)), path).toBeNull();
    }
  });
});
