import type { ClientMetadataSource, FetchedMetadata } from "@psm/core";
import { guardedLookup, type HostResolver, systemResolver } from "./allowed-addresses.js";
import { exchange } from "./exchange.js";
import { parseTarget } from "./url-policy.js";
import { createVerdictMemo } from "./verdict-memo.js";

/** Options of createClientMetadataSource; every one has a default. */
export interface ClientMetadataOptions {
  /**
   * Development only: accepts http URLs and hosts on loopback, private and link-local addresses
   * (CLIENT_METADATA_ALLOW_PRIVATE). Default false: https to public addresses only.
   */
  allowPrivate?: boolean;
  /** The whole fetch, lookup to last byte, in milliseconds. Default 5000. */
  timeoutMs?: number;
  /** The largest document accepted, in bytes. Default 5120 (the MCP specification's advice). */
  maxBytes?: number;
  /** How long a fetched document (or a refusal) is reused, in milliseconds. Default 300000 (5 minutes). */
  ttlMs?: number;
  /** At most this many fetches at once; more are refused at once rather than queued. Default 16. */
  maxInFlight?: number;
  /** Resolves a host name to all its addresses. Default: `dns.lookup` with `all: true`. */
  lookup?: HostResolver;
}

/**
 * Core's ClientMetadataSource under the webhook SSRF rules (the same URL policy and connection-time
 * address vetting, no redirect followed), bounded in time and bytes, with a cache of recent
 * answers and of refusals: a client's every authorization does not cost a fetch, and a slow or
 * hostile document host costs at most `timeoutMs` a few times an hour. Fetches of one URL at once
 * share one request; beyond `maxInFlight` distinct fetches, the answer is a refusal.
 */
export function createClientMetadataSource(options: ClientMetadataOptions = {}): ClientMetadataSource {
  const allowPrivate = options.allowPrivate ?? false;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const maxBytes = options.maxBytes ?? 5_120;
  const maxInFlight = options.maxInFlight ?? 16;
  const lookup = guardedLookup(options.lookup ?? systemResolver, allowPrivate);
  const memo = createVerdictMemo<FetchedMetadata>(options.ttlMs ?? 300_000, 1024);
  const inFlight = new Map<string, Promise<FetchedMetadata>>();

  const fetchOnce = async (raw: string): Promise<FetchedMetadata> => {
    const target = parseTarget(raw, allowPrivate);
    if (!target.ok) return { ok: false, reason: target.reason };
    const { url } = target;
    if (url.protocol !== "https:" && !allowPrivate) return { ok: false, reason: "The URL must use https." };
    if (url.pathname === "/" || url.hash !== "") {
      return { ok: false, reason: "The URL must have a path and no fragment." };
    }
    const headers = { accept: "application/json", "user-agent": "psm-oauth/1" };
    // One byte over the limit tells an oversized document from one of exactly the limit.
    const result = await exchange(url, headers, undefined, {
      timeoutMs,
      maxResponseBytes: maxBytes + 1,
      lookup,
    });
    if (result.kind === "broken") return { ok: false, reason: result.error };
    if (result.status !== 200) return { ok: false, reason: `It answered ${result.status}, not 200.` };
    if (result.body.length > maxBytes) return { ok: false, reason: `It is larger than ${maxBytes} bytes.` };
    const type =
      String(result.headers["content-type"] ?? "")
        .split(";")[0]
        ?.trim()
        .toLowerCase() ?? "";
    if (type !== "application/json" && !type.endsWith("+json")) {
      return { ok: false, reason: "It is not served as application/json." };
    }
    try {
      return { ok: true, document: JSON.parse(result.body.toString("utf8")) as unknown };
    } catch {
      return { ok: false, reason: "It is not JSON." };
    }
  };

  return {
    async fetch(url) {
      const remembered = memo.get(url, Date.now());
      if (remembered) return remembered;
      const running = inFlight.get(url);
      if (running) return running;
      if (inFlight.size >= maxInFlight)
        return { ok: false, reason: "Too many documents are being fetched; try again." };
      const pending = fetchOnce(url).then((answer) => {
        memo.set(url, answer, Date.now());
        return answer;
      });
      inFlight.set(url, pending);
      try {
        return await pending;
      } finally {
        inFlight.delete(url);
      }
    },
  };
}
