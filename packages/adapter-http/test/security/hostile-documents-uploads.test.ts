/**
 * Issue 11 §1 and §4: uploads cannot hold what other callers need, slow bodies are cut off, and
 * an upload over the limit always gets its 413. Against the real server process (on each
 * backend) where sockets and timing matter, and against the route on a real socket with a
 * short body deadline where waiting 15 s would only slow the suite.
 */

import { createHttpApp } from "@psm/adapter-http";
import { createStubDocumentParser } from "@psm/core/testing";
import { describe, expect, test } from "vitest";
import { uploadForm } from "./support/files.js";
import { BACKENDS, useHostileServer } from "./support/hostile-server.js";
import { startRealServer } from "./support/real-server.js";
import { slowUpload } from "./support/slow-upload.js";
import { target } from "./support/target.js";

const MiB = 1024 * 1024;
const portOf = (url: string) => Number(new URL(url).port);

for (const backend of BACKENDS) {
  describe(`uploads against the server process on ${backend}`, () => {
    const server = useHostileServer(backend);

    test("an upload over 10 MiB gets its 413 every time, never a reset before the answer", {
      timeout: 120_000,
    }, async () => {
      const token = await server.account();
      const file = new Uint8Array(11 * MiB).fill(0x61);
      const outcomes: string[] = [];
      for (let i = 0; i < 20; i++) {
        try {
          const res = await fetch(`${server.url}/api/parse-pdf`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}` },
            body: uploadForm(file, "big.txt", "text/plain"),
          });
          const body = (await res.json()) as { code?: string };
          outcomes.push(`${res.status} ${body.code}`);
        } catch (error) {
          const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
          outcomes.push(`no answer: ${cause?.code ?? String(error)}`);
        }
      }
      expect(outcomes).toEqual(new Array(20).fill("413 payload_too_large"));
    });

    test("four slow uploads of one account hold only its own share: another account's upload is parsed", {
      timeout: 180_000,
    }, async () => {
      const slow = await server.account();
      const other = await server.account();
      // 100 KB declared, one byte every 200 ms: each would take hours to arrive.
      const uploads = Array.from({ length: 4 }, () => slowUpload(portOf(server.url), slow, 100_000, 200));
      try {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const res = await fetch(`${server.url}/api/parse-pdf`, {
          method: "POST",
          headers: { authorization: `Bearer ${other}` },
          body: uploadForm("# Data audit\nWe audit data platforms. Price: $4,800", "a.txt", "text/plain"),
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ price: 4800 });
        // The slow account's share is two uploads at once, slow bodies included: the others were refused.
        const refused = uploads.filter((u) => u.reply().startsWith("HTTP/1.1 429"));
        expect(refused).toHaveLength(2);
      } finally {
        for (const u of uploads) u.stop();
      }
    });
  });
}

describe("a trickling body, on a real socket", () => {
  test("is cut off at its deadline with a 400, and the connection closed", { timeout: 30_000 }, async () => {
    const t = target({ documents: createStubDocumentParser() });
    const s = await t.signUp();
    const app = createHttpApp({
      marketplace: t.marketplace,
      config: { corsOrigins: "*", publicUrl: "http://localhost" },
      uploads: { bodyTimeoutMs: 500 },
    });
    const server = await startRealServer(app);
    try {
      // 400 bytes at one per 50 ms would take 20 s: the body deadline ends it after 0.5 s.
      const upload = slowUpload(server.port, s.token, 400, 50);
      const { bytesSent, reply } = await upload.closed;
      expect(reply).toMatch(/^HTTP\/1\.1 400/);
      expect(reply).toContain("did not arrive within");
      expect(bytesSent).toBeLessThan(400);
    } finally {
      await server.close();
    }
  });
});
