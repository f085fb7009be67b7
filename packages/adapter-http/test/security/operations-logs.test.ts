/**
 * What the operator sees: a 500's cause in the log and never in the answer, a client that left
 * logged as such rather than as an error, and the client address as TRUST_PROXY resolves it.
 * Storage-related proofs run on each backend.
 */
import { connect as connectSocket } from "node:net";
import { openPostgresStorage } from "@psm/adapter-postgres";
import { describe, expect, test } from "vitest";
import type { Logger } from "../../src/index.js";
import { expectError } from "../helpers.js";
import { BACKENDS, useHostileServer } from "./support/hostile-server.js";
import { startRealServer } from "./support/real-server.js";
import { slowUpload } from "./support/slow-upload.js";
import { openStorage } from "./support/storage.js";
import { target } from "./support/target.js";

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

/** Waits until `check` holds, however long a busy machine takes: the test's timeout is the only clock. */
async function eventually(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("a 500 is logged with its cause, never answered with it", () => {
  for (const backend of BACKENDS) {
    test(`${backend}: the driver's error, code and stack reach the log through the adapter's wrapper`, async () => {
      const real = await openStorage(backend, 2);
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
      await expectError(res, 503, { error: "Service unavailable", code: "service_unavailable" });
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
      const server = useHostileServer(backend);

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
