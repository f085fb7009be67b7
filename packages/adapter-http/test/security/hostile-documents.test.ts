/**
 * Issue 11 §1: no uploaded byte sequence may stall the server's event loop or grow its memory
 * past a fixed budget. Hostile documents (a quadratic keyword flood, decompression bombs in
 * every filter spelling, super-linear text shapes, a multipart body of tiny parts) are uploaded
 * to the real server process, on each backend, while a health probe measures how long the event
 * loop takes to answer; the process's resident memory is read before and after.
 */
import { BOMB_SPELLINGS, bombPdf, HOSTILE_TEXTS, streamKeywordFlood } from "@psm/adapter-documents/testing";
import { beforeAll, describe, expect, test } from "vitest";
import { uploadForm } from "./support/files.js";
import { BACKENDS, useAccount, useHostileServer } from "./support/hostile-server.js";
import { percentile, startProbe } from "./support/probe.js";

const MiB = 1024 * 1024;

interface Hostile {
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
  filename: string;
  type: string;
  /** The statuses decisions.md allows for it. */
  statuses: number[];
}

/** A multipart body of `parts` tiny fields before the file: a million entries for a general form parser. */
function partFlood(parts: number): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const boundary = "hostileBoundary";
  const field = `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n`;
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nHello\r\n`;
  const text = `${field.repeat(parts)}${file}--${boundary}--\r\n`;
  return {
    body: new Uint8Array(Buffer.from(text, "latin1")),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

// Built once, before any probe runs: making a gibibyte bomb takes the test process a second.
const hostiles: Hostile[] = [];
beforeAll(async () => {
  const pdf = (name: string, bytes: Uint8Array<ArrayBuffer>, statuses: number[]) =>
    hostiles.push({ name, bytes, filename: `${name}.pdf`, type: "application/pdf", statuses });
  pdf("stream keyword flood", streamKeywordFlood(2 * MiB), [400]);
  for (const spelling of BOMB_SPELLINGS) {
    const claim = ["direct", "escaped", "indirect", "object-stream", "lzw", "brotli"].includes(spelling)
      ? 1024 * MiB
      : 256 * MiB;
    pdf(`bomb (${spelling}, ${claim / MiB} MiB)`, await bombPdf(claim, spelling), [413]);
  }
  for (const [shape, make] of Object.entries(HOSTILE_TEXTS)) {
    const bytes = new Uint8Array(Buffer.from(make(200_000), "utf8"));
    hostiles.push({
      name: `text ${shape}`,
      bytes,
      filename: `${shape}.txt`,
      type: "text/plain",
      statuses: [200, 400],
    });
  }
}, 120_000);

for (const backend of BACKENDS) {
  describe(`hostile documents against the server process on ${backend}`, () => {
    const server = useHostileServer(backend);
    const account = useAccount(server);

    const upload = async (body: FormData | Uint8Array<ArrayBuffer>, contentType?: string) => {
      const headers: Record<string, string> = { authorization: `Bearer ${account.token}` };
      if (contentType) headers["content-type"] = contentType;
      const res = await fetch(`${server.url}/api/parse-pdf`, { method: "POST", headers, body });
      return { status: res.status, body: (await res.json()) as { code?: string } };
    };

    test("every hostile upload gets its documented answer; the event loop keeps answering; memory stays bounded", {
      timeout: 180_000,
    }, async () => {
      // Warm up both parse workers, then measure what an idle server's probe waits.
      const warm = () => upload(uploadForm("# Audit\nWe audit clouds. Price: $900", "a.txt", "text/plain"));
      expect((await Promise.all([warm(), warm()])).map((r) => r.status)).toEqual([200, 200]);
      const idle = startProbe(server.url);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const baseline = percentile(await idle.stop(), 99);
      const rssBefore = server.rss();

      const probe = startProbe(server.url);
      const answers: string[] = [];
      for (const hostile of hostiles) {
        const { status, body } = await upload(uploadForm(hostile.bytes, hostile.filename, hostile.type));
        answers.push(`${hostile.name}: ${status} ${body.code ?? ""}`);
        expect(hostile.statuses, `${hostile.name} answered ${status} ${body.code ?? ""}`).toContain(status);
      }
      const flood = partFlood(150_000);
      const parts = await upload(flood.body, flood.contentType);
      expect(parts).toMatchObject({ status: 400, body: { code: "invalid_input" } });
      const waits = await probe.stop();
      const rssGrowth = server.rss() - rssBefore;

      // Relative to the same server idle a moment ago: a loaded machine slows both alike.
      const bound = Math.max(200, 20 * baseline);
      expect(percentile(waits, 99), `probe p99 (idle p99 ${baseline.toFixed(1)} ms)`).toBeLessThan(bound);
      expect(waits.length).toBeGreaterThan(hostiles.length);
      // Bombs claim a gibibyte each; the process grows by no more than its workers' bounds.
      expect(rssGrowth, answers.join("\n")).toBeLessThan(300 * MiB);
    });
  });
}
