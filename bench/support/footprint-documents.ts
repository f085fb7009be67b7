/**
 * Document work for the footprint (issue 30 item 4): callers upload a text
 * PDF and a scanned flyer (a PNG, OCR'd) to POST /api/parse-pdf at once while
 * the server and its document processes are sampled; then the run waits for
 * the idle processes to end.
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { samplePeak, type TreeMemory, treeMemory } from "./footprint.js";
import { REPO_ROOT } from "./modules.js";

/**
 * Uploads over the API for `seconds`, one caller per token (the upload gate gives each caller
 * one share), alternating a PDF and an image.
 */
export async function documentWork(
  base: string,
  pid: number,
  tokens: string[],
  options: { seconds: number; idleWaitMs: number; settleMs: number },
): Promise<{ documents?: TreeMemory; afterDocuments?: TreeMemory; parsed: number; refused: number }> {
  // The test support of adapter-documents: its sources, through ts-resolve's ".js" → ".ts".
  const { textToPdf } = await import("../../packages/adapter-documents/test/support/make-pdf.js");
  const { renderTextPng } = await import("../../packages/adapter-documents/test/support/render-text.js");
  const text = readFileSync(`${REPO_ROOT}packages/adapter-documents/corpus/flyers/bookkeeping.txt`, "utf8");
  const files = [
    { name: "brochure.pdf", type: "application/pdf", bytes: await textToPdf(text) },
    { name: "flyer.png", type: "image/png", bytes: renderTextPng(text.trimEnd().split("\n")) },
  ];
  const sampler = samplePeak(pid);
  const until = Date.now() + options.seconds * 1000;
  let parsed = 0;
  let refused = 0;
  const caller = async (token: string, start: number) => {
    for (let i = start; Date.now() < until; i++) {
      const file = files[i % files.length];
      if (!file) break;
      const form = new FormData();
      form.append("file", new Blob([Buffer.from(file.bytes)], { type: file.type }), file.name);
      const answer = await fetch(`${base}/api/parse-pdf`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      await answer.arrayBuffer();
      if (answer.ok) {
        parsed++;
      } else {
        refused++;
        await sleep(100); // every process busy (503): try again shortly, as a client would
      }
    }
  };
  await Promise.all(tokens.map((token, i) => caller(token, i)));
  sampler.stop();
  const documents = sampler.peak();
  // Idle processes end after their idle period (30 s by default): wait for it, a little longer.
  const waitUntil = Date.now() + options.idleWaitMs;
  let after = treeMemory(pid);
  while (after !== undefined && after.children > 0 && Date.now() < waitUntil) {
    await sleep(500);
    after = treeMemory(pid);
  }
  // The server returns what the traffic left after 30-60 s without requests (apps/server/src/heap.ts).
  await sleep(options.settleMs);
  after = treeMemory(pid);
  return {
    parsed,
    refused,
    ...(documents ? { documents } : {}),
    ...(after ? { afterDocuments: after } : {}),
  };
}
