/**
 * Document work for the footprint (issue 30 item 4): callers upload a text
 * PDF and a scanned flyer (a PNG, OCR'd) to POST /api/parse-pdf at once while
 * the server and its document processes are sampled. And the reading a minute
 * after the last request, once the document processes have ended.
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
  seconds: number,
): Promise<{ documents?: TreeMemory; parsed: number; refused: number }> {
  // The test support of adapter-documents: its sources, through ts-resolve's ".js" → ".ts".
  const { textToPdf } = await import("../../packages/adapter-documents/test/support/make-pdf.js");
  const { renderTextPng } = await import("../../packages/adapter-documents/test/support/render-text.js");
  const text = readFileSync(`${REPO_ROOT}packages/adapter-documents/corpus/flyers/bookkeeping.txt`, "utf8");
  const files = [
    { name: "brochure.pdf", type: "application/pdf", bytes: await textToPdf(text) },
    { name: "flyer.png", type: "image/png", bytes: renderTextPng(text.trimEnd().split("\n")) },
  ];
  const sampler = samplePeak(pid);
  const until = Date.now() + seconds * 1000;
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
  return { parsed, refused, ...(documents ? { documents } : {}) };
}

/**
 * The figures of `pid` once its document processes have ended (within `childrenWaitMs`) and
 * `settleMs` more have passed without a request: the server returns what traffic left after 30 s
 * of quiet (apps/server/src/heap.ts).
 */
export async function quietMemory(
  pid: number,
  options: { childrenWaitMs: number; settleMs: number },
): Promise<TreeMemory | undefined> {
  const waitUntil = Date.now() + options.childrenWaitMs;
  let after = treeMemory(pid);
  while (after !== undefined && after.children > 0 && Date.now() < waitUntil) {
    await sleep(500);
    after = treeMemory(pid);
  }
  await sleep(options.settleMs);
  return treeMemory(pid);
}
