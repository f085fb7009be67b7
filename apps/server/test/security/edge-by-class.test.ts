/**
 * Issue 26 §5: the protections of the edge belong to a class of operation, so every surface that
 * has the operation gets them. Against the composed server process, on real sockets: an upload's
 * share and budget are one across the API, the pages and MCP; a page upload's token is checked
 * before its body is read and its parts are counted, not parsed into a form; a JSON-RPC body is
 * size- and count-checked before it is walked.
 *
 * SQLite only: nothing here reaches storage past signing up, and the server's edge is the same
 * code on both backends (the hostile upload suites run on both).
 */
import { beforeAll, describe, expect, test } from "vitest";
import { signUpAndLogIn } from "../support/accounts.js";
import { useHarness } from "../support/harness.js";
import { heldRequest } from "../support/held-request.js";
import { uploadForm } from "../support/http.js";
import type { ServerProcess } from "../support/server-process.js";
import { eventually } from "../support/wait.js";
import { logInOnPages, uploadAction, type WebSession } from "../support/web-session.js";

const MiB = 1024 * 1024;
const PASSWORD = "edge-password-1";
const OFFER = "# Data audit\nWe audit data platforms. Price: $4,800";

const h = useHarness("file");
let server: ServerProcess;
let accounts = 0;

beforeAll(async () => {
  server = await h.server({ dataDir: await h.dataDir() });
}, 180_000);

/** A new account: its address, a JWT and a session on the pages. */
async function account(): Promise<{ email: string; token: string; web: WebSession }> {
  const email = `edge${++accounts}@acme.io`;
  const { token } = await signUpAndLogIn(server.url, email, PASSWORD);
  return { email, token, web: await logInOnPages(server.url, email, PASSWORD) };
}

/** A JSON-RPC call of draft_listing_from_document (a stateless server needs no session). */
function documentCall(text: string): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "draft_listing_from_document",
      arguments: { filename: "offer.txt", content_base64: Buffer.from(text).toString("base64") },
    },
  });
}

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("one upload share per account, whatever the surface", () => {
  test("two held uploads (API and MCP) refuse a third on the API, MCP and the pages; freed, all three work", {
    timeout: 180_000,
  }, async () => {
    const { token, web } = await account();
    const auth = { authorization: `Bearer ${token}` };
    const hold = () => [
      heldRequest(
        server.url,
        "/api/parse-pdf",
        { ...auth, "content-type": "multipart/form-data; boundary=b" },
        100_000,
        "--b\r\n",
      ),
      heldRequest(server.url, "/mcp", { ...auth, ...MCP_HEADERS }, 5 * MiB, '{"jsonrpc":"2.0",'),
    ];
    let held = hold();
    const api = () =>
      fetch(`${server.url}/api/parse-pdf`, {
        method: "POST",
        headers: auth,
        body: uploadForm(OFFER, "a.txt", "text/plain"),
      });
    const mcp = () =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { ...auth, ...MCP_HEADERS },
        body: documentCall(OFFER),
      });
    const page = async () => {
      const form = new FormData();
      form.set("document", new File([OFFER], "offer.txt", { type: "text/plain" }));
      const action = uploadAction(await web.page("/post"), "/post/document");
      return fetch(`${server.url}${action}`, {
        method: "POST",
        headers: { cookie: web.cookie, origin: server.url, accept: "text/html" },
        body: form,
      });
    };
    try {
      // The held bodies take their shares once their heads arrive; a probe that came first took
      // one itself and got a held body refused, which is opened again.
      const probe = async () => {
        if (held.some((h) => h.reply() !== "")) {
          for (const h of held) h.stop();
          held = hold();
        }
        return api();
      };
      const third = await eventually(
        probe,
        (res) => res.status === 429 && held.every((h) => h.reply() === ""),
      );
      expect(third.status).toBe(429);
      const refusedMcp = await mcp();
      expect(refusedMcp.status).toBe(429);
      expect(await refusedMcp.json()).toMatchObject({ code: "rate_limited" });
      const refusedPage = await page();
      expect(refusedPage.status).toBe(429);
      // The page gives the gate's own reason (not a generic "too many attempts").
      expect(await refusedPage.text()).toContain("uploads of one account are handled at once");
    } finally {
      for (const h of held) h.stop();
    }
    expect((await eventually(api, (res) => res.status === 200)).status).toBe(200);
    const answered = await mcp();
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ result: { structuredContent: { price: 4800 } } });
    const read = await page();
    expect(read.status).toBe(200);
    expect(await read.text()).toContain("We filled in the form from offer.txt");
  });
});

describe("a page upload is checked before its body is read", () => {
  test("without its token: 403 while the declared 9.9 MiB body has not arrived", {
    timeout: 30_000,
  }, async () => {
    const { web } = await account();
    const held = heldRequest(
      server.url,
      "/post/document",
      { cookie: web.cookie, origin: server.url, "content-type": "multipart/form-data; boundary=b" },
      Math.floor(9.9 * MiB),
      `--b\r\n${'Content-Disposition: form-data; name="x"\r\n\r\n1\r\n--b\r\n'.repeat(20)}`,
    );
    try {
      expect(await held.answered).toMatch(/^HTTP\/1\.1 403/);
    } finally {
      held.stop();
    }
  });

  test("with its token, a body of tiny parts is refused by its part count, not parsed into a form", {
    timeout: 30_000,
  }, async () => {
    const { web } = await account();
    const part = '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n';
    const body = `${part.repeat(Math.floor((2 * MiB) / part.length))}--b--\r\n`;
    const res = await fetch(`${server.url}${uploadAction(await web.page("/post"), "/post/document")}`, {
      method: "POST",
      headers: {
        cookie: web.cookie,
        origin: server.url,
        accept: "text/html",
        "content-type": "multipart/form-data; boundary=b",
      },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Request not understood");
  });
});

describe("a JSON-RPC body is checked before it is walked", () => {
  test("a 1 MiB anonymous batch is refused by its count (rate limits off: nothing else stops it)", async () => {
    const batch = `[${Array.from({ length: 100_000 }, () => '{"jsonrpc":"2.0","method":"ping"}').join(",")}]`;
    const res = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: MCP_HEADERS,
      body: batch.slice(0, MiB - 2).replace(/,[^,]*$/, "]"),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
  });

  test("a 1 MiB anonymous nest of arrays is refused by its depth, as on the API, never a stack overflow", async () => {
    const depth = MiB / 2 - 1;
    const res = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: MCP_HEADERS,
      body: `${"[".repeat(depth)}${"]".repeat(depth)}`,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_input", error: expect.stringMatching(/nest/) });
  });
});
