import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seedUser } from "../support/accounts.js";
import { useHarness } from "../support/harness.js";
import { call, expectStatus } from "../support/http.js";
import { mcpInitialize } from "../support/mcp-initialize.js";
import { APP_DIR } from "../support/paths.js";

const h = useHarness();

const HOOK = join(APP_DIR, "test/support/loaded-modules.ts");

/**
 * What an idle server must not hold (issue 30, footprint): each is loaded when
 * first used. The MCP SDK with zod and ajv on the first POST /mcp, nodemailer's
 * composer with the first mail, OpenTelemetry only with a collector, and the document
 * readers (pdf.js, tesseract) only inside the document processes.
 */
const LOADED_WHEN_USED = [
  "@modelcontextprotocol/sdk",
  "/zod/",
  "/ajv/",
  // Its address parser (one file) checks MAIL_FROM at start; the composer and SMTP wait for a mail.
  "/nodemailer/lib/mail-composer/",
  "/nodemailer/lib/nodemailer.js",
  "@opentelemetry/sdk-trace",
  "@opentelemetry/exporter-trace-otlp-http",
  "/tesseract.js-core/",
  "/unpdf/",
];

/** The packages of LOADED_WHEN_USED among the modules the process has loaded so far. */
function loadedOf(file: string): string[] {
  const urls = readFileSync(file, "utf8");
  return LOADED_WHEN_USED.filter((name) => urls.includes(name));
}

/** Children of `pid` (Linux: the document processes are the server's only ones). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, "latin1").split(" ").filter(Boolean).map(Number),
  );
}

const initialize = mcpInitialize("footprint");

describe.skipIf(process.platform !== "linux")("what a started server holds (needs /proc)", () => {
  it("answers pages and the API without the MCP SDK, nodemailer, OpenTelemetry or a document process, and loads the SDK on the first MCP call", async () => {
    const dataDir = await h.dataDir();
    const file = join(dataDir, "loaded-modules.txt");
    const server = await h.server({
      dataDir,
      env: { PSM_LOADED_MODULES_FILE: file },
      nodeArgs: ["--import", HOOK],
    });
    const pid = server.child.pid ?? 0;

    expectStatus(await call(server.url, "GET", "/api/listings"), 200);
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    await page.text();
    expect(loadedOf(file)).toEqual([]);
    expect(childrenOf(pid)).toEqual([]);

    const mcp = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(initialize),
    });
    expect(mcp.status).toBe(200);
    expect(await mcp.json()).toMatchObject({ id: 1, result: { serverInfo: { name: "psm-marketplace" } } });
    expect(loadedOf(file)).toEqual(expect.arrayContaining(["@modelcontextprotocol/sdk", "/zod/"]));

    // The first document starts a document process; pdf.js and tesseract load there, not here.
    const user = await seedUser(server.url, "footprint@example.com", 0);
    const form = new FormData();
    form.set("file", new File(["Bookkeeping\nMonthly accounts from $290 a month."], "offer.txt"));
    expectStatus(await call(server.url, "POST", "/api/parse-pdf", { apiKey: user.apiKey, form }), 200);
    expect(childrenOf(pid)).toHaveLength(1);
    expect(loadedOf(file)).not.toContain("/tesseract.js-core/");
    expect(loadedOf(file)).not.toContain("/unpdf/");
  }, 180_000);
});
