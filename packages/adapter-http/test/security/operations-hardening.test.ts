/**
 * Operations and hardening: what the operator sees (a 500's cause, a client
 * that left, the client address), what lies on disk (SQLite files 0600), what
 * caches may keep (no-store on private answers), what /docs costs to fetch
 * (compressed), and what the self-description says (admin keys, legacy gaps,
 * version 1.2.0). Storage-related proofs run on each backend.
 */
import { readdirSync, readlinkSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { connect as connectSocket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { API_VERSION } from "@psm/adapter-http";
import { openPostgresStorage } from "@psm/adapter-postgres";
import {
  createTestDatabase,
  openConnection as openPostgresConnection,
  testDatabaseUrl,
} from "@psm/adapter-postgres/testing";
import { openSqliteStorage } from "@psm/adapter-sqlite";
import { openConnection } from "@psm/adapter-sqlite/testing";
import type { Storage } from "@psm/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Logger } from "../../src/index.js";
import { negotiateCoding } from "../../src/precompressed.js";
import { BACKENDS, type HostileServer, startHostileServer } from "./support/hostile-server.js";
import { startRealServer } from "./support/real-server.js";
import { slowUpload } from "./support/slow-upload.js";
import { type Target, target } from "./support/target.js";

/** One captured log line. */
interface Line {
  level: "info" | "warn" | "error";
  obj: Record<string, unknown>;
  msg: string | undefined;
}

/** A logger that keeps every line, for the checks on what the operator sees. */
function captureLogs(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: Line["level"]) => (obj: object, msg?: string) =>
    lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { logger: { info: at("info"), warn: at("warn"), error: at("error") }, lines };
}

/** The causes of a logged `err`, outermost first. */
function causeChain(err: unknown): Record<string, unknown>[] {
  const chain: Record<string, unknown>[] = [];
  for (let current = err; typeof current === "object" && current !== null; ) {
    chain.push(current as Record<string, unknown>);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** Waits until `check` holds, for at most `ms`. */
async function eventually(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Real storage on a backend, and a way to break it underneath the app as a lost migration would. */
interface RealStorage {
  storage: Storage;
  /** Drops the listings table behind the repositories' back. */
  dropListings(): Promise<void>;
  /** The driver's code for "no such table" on this backend. */
  missingTableCode: string;
  close(): Promise<void>;
}

async function openRealStorage(backend: "sqlite" | "postgres"): Promise<RealStorage> {
  if (backend === "sqlite") {
    const dir = await mkdtemp(join(tmpdir(), "psm-ops-"));
    const file = join(dir, "marketplace.db");
    const storage = openSqliteStorage({ file });
    await storage.migrate();
    return {
      storage,
      missingTableCode: "SQLITE_ERROR",
      async dropListings() {
        const other = openConnection(file);
        other.exec("DROP TABLE listings");
        other.close();
      },
      async close() {
        await storage.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = testDatabaseUrl();
  if (adminUrl === undefined) throw new Error("BACKENDS lists postgres only with TEST_DATABASE_URL");
  const database = await createTestDatabase(adminUrl, "psm_ops");
  const storage = openPostgresStorage({ url: database.url, poolMax: 2 });
  await storage.migrate();
  return {
    storage,
    missingTableCode: "42P01", // undefined_table
    async dropListings() {
      const sql = openPostgresConnection(database.url, 1);
      await sql.unsafe("drop table listings cascade");
      await sql.end({ timeout: 5 });
    },
    async close() {
      await storage.close();
      await database.drop();
    },
  };
}

describe("a 500 is logged with its cause, never answered with it", () => {
  for (const backend of BACKENDS) {
    test(`${backend}: the driver's error, code and stack reach the log through the adapter's wrapper`, async () => {
      const real = await openRealStorage(backend);
      try {
        const { logger, lines } = captureLogs();
        const t = target({ repos: real.storage.repositories, config: { logger } });
        expect((await t.request("GET", "/api/listings")).status).toBe(200);
        await real.dropListings();

        // Another page: the first one may be answered from the answer cache for a second.
        const res = await t.request("GET", "/api/listings?limit=5", {
          headers: { "X-Request-Id": `ops-${backend}` },
        });
        const text = await res.text();
        expect(res.status).toBe(500);
        expect(JSON.parse(text)).toEqual({ error: "Internal server error", code: "internal_error" });
        for (const leak of ["listings", real.missingTableCode, "at ", "stack"])
          expect(text).not.toContain(leak);

        const logged = lines.find((line) => line.msg === "unhandled error");
        expect(logged?.level).toBe("error");
        expect(logged?.obj).toMatchObject({ reqId: `ops-${backend}`, method: "GET", path: "/api/listings" });
        const chain = causeChain(logged?.obj.err);
        // The wrapper first (what the caller was told), then what actually failed.
        expect(chain[0]).toMatchObject({ name: "MarketplaceError", message: "Internal server error" });
        expect(chain.length).toBeGreaterThan(1);
        const driver = chain.find((cause) => cause.code === real.missingTableCode);
        expect(driver, JSON.stringify(chain)).toBeDefined();
        expect(String(driver?.message)).toMatch(/listings/);
        expect(String(driver?.stack)).toContain(String(driver?.name));
        for (const cause of chain) expect(typeof cause.stack).toBe("string");
      } finally {
        await real.close();
      }
    });
  }

  test("a dependency that refuses connections: 503 for the caller, a warning with the cause for the operator", async () => {
    const { logger, lines } = captureLogs();
    // Nothing listens on port 1: postgres.js fails with ECONNREFUSED at once.
    const storage = openPostgresStorage({ url: "postgres://nobody@127.0.0.1:1/none", poolMax: 1 });
    try {
      const t = target({ repos: storage.repositories, config: { logger } });
      const res = await t.request("GET", "/api/listings");
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: "Service unavailable", code: "service_unavailable" });
      const warned = lines.find((line) => line.msg === "dependency failure");
      expect(warned?.level).toBe("warn");
      expect(JSON.stringify(warned?.obj.err)).toContain("ECONNREFUSED");
      expect(lines.some((line) => line.level === "error")).toBe(false);
    } finally {
      await storage.close();
    }
  });

  test("a query's parameters (users' data) are cut from the logged message and stack", async () => {
    const { logger, lines } = captureLogs();
    const query = Object.assign(
      new Error("Failed query: select 1 where email = ?\nparams: alice@example.com"),
      {
        cause: Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" }),
      },
    );
    const t = target({ config: { logger } });
    t.marketplace.listings.search = async () => {
      throw query;
    };
    expect((await t.request("GET", "/api/listings")).status).toBe(500);
    const logged = JSON.stringify(lines.find((line) => line.level === "error")?.obj);
    expect(logged).toContain("select 1 where email = ?");
    expect(logged).toContain("SQLITE_IOERR");
    expect(logged).not.toContain("alice@example.com");
  });
});

describe("a client that aborts its body is not a server error", () => {
  test("an upload and a JSON body cut off mid-way: logged at info as aborted, no error line", async () => {
    const { logger, lines } = captureLogs();
    const t = target({ config: { logger } });
    const session = await t.signUp();
    const server = await startRealServer(t.app);
    try {
      const upload = slowUpload(server.port, session.token, 1_000_000, 5);
      await new Promise((resolve) => setTimeout(resolve, 150));
      upload.stop();
      await eventually(() => lines.some((l) => l.obj.path === "/api/parse-pdf" && l.msg === "request"));

      const socket = connectSocket(server.port, "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(
        `POST /api/listings HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${session.token}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"title": "Aud',
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      socket.destroy();
      await eventually(() => lines.some((l) => l.obj.path === "/api/listings" && l.msg === "request"));
    } finally {
      await server.close();
    }
    expect(lines.filter((line) => line.level !== "info")).toEqual([]);
    for (const path of ["/api/parse-pdf", "/api/listings"]) {
      const aborted = lines.find(
        (line) => line.obj.path === path && line.msg === "request aborted by the client",
      );
      expect(aborted, path).toBeDefined();
      const access = lines.find((line) => line.obj.path === path && line.msg === "request");
      expect(access?.obj.status, path).toBe(400);
    }
  });

  for (const backend of BACKENDS) {
    describe(`the composed server on ${backend}`, () => {
      let server: HostileServer;
      beforeAll(async () => {
        server = await startHostileServer(backend);
      }, 60_000);
      afterAll(async () => {
        await server?.stop();
      });

      test("an aborted upload is an info line in its JSON log; the access log names the client", async () => {
        const token = await server.account();
        const upload = slowUpload(Number(new URL(server.url).port), token, 1_000_000, 5);
        await new Promise((resolve) => setTimeout(resolve, 150));
        upload.stop();
        const logLines = () =>
          server
            .output()
            .split("\n")
            .filter((line) => line.startsWith("{"))
            .map((line) => JSON.parse(line) as Record<string, unknown>);
        await eventually(() => logLines().some((l) => l.path === "/api/parse-pdf" && l.msg === "request"));
        const lines = logLines().filter((l) => l.path === "/api/parse-pdf");
        expect(lines.find((l) => l.msg === "request aborted by the client")?.level).toBe(30); // info
        expect(lines.some((l) => l.msg === "unhandled error")).toBe(false);
        expect(lines.find((l) => l.msg === "request")).toMatchObject({ status: 400, ip: "127.0.0.1" });
      });
    });
  }
});

describe("the access log names the client as TRUST_PROXY resolves it", () => {
  test("the socket peer, or the first untrusted X-Forwarded-For hop behind a trusted proxy; on preflights too", async () => {
    const { logger, lines } = captureLogs();
    const t = target({ config: { logger, trustProxy: ["10.0.0.0/8"] } });
    const xff = { "X-Forwarded-For": "198.51.100.9, 203.0.113.7" };
    await t.request("GET", "/api/listings", { ip: "192.0.2.1", headers: xff });
    await t.request("GET", "/api/listings", { ip: "10.0.0.2", headers: xff });
    await t.request("OPTIONS", "/api/listings", {
      ip: "10.0.0.2",
      headers: { ...xff, Origin: "https://a.example" },
    });
    await t.request("GET", "/healthz");
    const ips = lines.filter((line) => line.msg === "request").map((line) => line.obj.ip);
    expect(ips).toEqual(["192.0.2.1", "203.0.113.7", "203.0.113.7", "unknown"]);
  });
});

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
  }, 60_000);
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
      ["GET", "/reset-password?token=not-a-token", {}],
      ["GET", "/verify-email?token=not-a-token", {}],
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

/** Fetches `path` over a real socket and counts the bytes of the body as sent (not decoded). */
function transferred(
  url: string,
  path: string,
  acceptEncoding?: string,
): Promise<{ bytes: Buffer; encoding: string | undefined; vary: string | undefined }> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding };
    httpRequest(`${url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          bytes: Buffer.concat(chunks),
          encoding: res.headers["content-encoding"],
          vary: res.headers.vary,
        }),
      );
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

describe("/docs assets are compressed for clients that accept it", () => {
  test("the bundle and the OpenAPI document: brotli or gzip, Vary: Accept-Encoding, the same bytes decoded", async () => {
    const t = target();
    const server = await startRealServer(t.app);
    try {
      for (const path of ["/docs/scalar.js", "/openapi.json"]) {
        const plain = await transferred(server.url, path);
        expect(plain.encoding, path).toBeUndefined();
        expect(plain.vary, path).toContain("Accept-Encoding");
        const br = await transferred(server.url, path, "gzip, deflate, br");
        expect(br.encoding, path).toBe("br");
        expect(brotliDecompressSync(br.bytes).equals(plain.bytes), path).toBe(true);
        const gzip = await transferred(server.url, path, "gzip");
        expect(gzip.encoding, path).toBe("gzip");
        expect(gunzipSync(gzip.bytes).equals(plain.bytes), path).toBe(true);
        // 4.35 MB and 64 KB uncompressed; about a quarter and a tenth of that compressed.
        expect(br.bytes.length, path).toBeLessThan(plain.bytes.length * 0.3);
        expect(gzip.bytes.length, path).toBeLessThan(plain.bytes.length * 0.3);
      }
    } finally {
      await server.close();
    }
  });

  test("Accept-Encoding is honoured: q-values, refusals, the wildcard", () => {
    expect(negotiateCoding(undefined)).toBe("identity");
    expect(negotiateCoding("")).toBe("identity");
    expect(negotiateCoding("identity")).toBe("identity");
    expect(negotiateCoding("deflate")).toBe("identity");
    expect(negotiateCoding("gzip")).toBe("gzip");
    expect(negotiateCoding("x-gzip")).toBe("gzip");
    expect(negotiateCoding("gzip, br")).toBe("br");
    expect(negotiateCoding("BR;q=0.5, gzip;q=0.8")).toBe("gzip");
    expect(negotiateCoding("br;q=0, gzip;q=0")).toBe("identity");
    expect(negotiateCoding("*")).toBe("br");
    expect(negotiateCoding("*;q=0.1, br;q=0")).toBe("gzip");
    expect(negotiateCoding("gzip;q=nonsense")).toBe("identity");
  });
});

describe("what the service says of itself", () => {
  test("an admin creating an API key is warned that it acts as admin; others are not; OpenAPI documents it", async () => {
    const t = target();
    const admin = await t.admin();
    const user = await t.signUp();
    const asAdmin = await t.json<{ warning?: string }>(
      await t.request("POST", "/api/keys", { token: admin.token, body: {} }),
    );
    expect(asAdmin.warning).toMatch(/admin rights outside \/api\/admin/);
    const asUser = await t.json<Record<string, unknown>>(
      await t.request("POST", "/api/keys", { token: user.token, body: {} }),
    );
    expect(asUser).not.toHaveProperty("warning");

    const doc = await t.json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>(await t.request("GET", "/openapi.json"));
    const created = JSON.stringify(doc.paths["/api/keys"]?.post?.responses["200"]);
    expect(created).toContain('"warning"');
  });

  test("the capabilities document: version 1.2.0, the admin-key rule, legacy mode's email gap", async () => {
    for (const mode of ["strict", "legacy"] as const) {
      const t = target({ mode });
      const caps = await t.json<{
        version: string;
        known_gaps: string[];
        changes_from_1_0_2: string[];
        authentication: { header: string; how_obtained: string }[];
      }>(await t.request("GET", "/api/capabilities"));
      expect(caps.version).toBe("1.2.0");
      expect(API_VERSION).toBe("1.2.0");
      const apiKey = caps.authentication.find((entry) => entry.header === "X-API-Key");
      expect(apiKey?.how_obtained).toContain("admin's key acts as admin outside /api/admin");
      expect(caps.changes_from_1_0_2.some((line) => line.includes("Cache-Control: no-store"))).toBe(true);
      const emailGap = caps.known_gaps.some(
        (gap) => gap.includes("GET /api/profiles") && gap.includes("email"),
      );
      expect(emailGap, mode).toBe(mode === "legacy");
    }
    const openapi = await target().request("GET", "/openapi.json");
    expect(((await openapi.json()) as { info: { version: string } }).info.version).toBe("1.2.0");
  });

  test("legacy mode's email gap is real: an anonymous caller sees every email", async () => {
    const t = target({ mode: "legacy" });
    const user = await t.signUp();
    const res = await t.request("GET", "/api/profiles");
    const body = await t.json<{ profiles: { email?: string }[] }>(res);
    expect(body.profiles.map((profile) => profile.email)).toContain(user.email);
  });
});
