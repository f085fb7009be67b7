import type { DeliveryOutcome, OutgoingDelivery, UrlVerdict, WebhookTransport } from "@psm/core";
import { allowedAddresses, guardedLookup, type HostResolver, systemResolver } from "./allowed-addresses.js";
import { exchange } from "./exchange.js";
import { outcomeOf } from "./outcome.js";
import { signatureHeaders } from "./signature.js";
import { parseTarget } from "./url-policy.js";
import { createVerdictMemo } from "./verdict-memo.js";

/** Options of createWebhookTransport; every one has a default. */
export interface WebhookTransportOptions {
  /**
   * Lets URLs resolve to loopback, private, link-local and other non-public addresses
   * (WEBHOOK_ALLOW_PRIVATE: tests, development). Default false.
   */
  allowPrivate?: boolean;
  /** The whole exchange (lookup, connect, headers, body) in milliseconds. Default 15000. */
  timeoutMs?: number;
  /** Bytes of an answer's body read at most. Default 4096. */
  maxResponseBytes?: number;
  /** The User-Agent header. Default `psm-webhooks/1`. */
  userAgent?: string;
  /** Resolves a host name to all its addresses. Default: `dns.lookup` with `all: true`. */
  lookup?: HostResolver;
  /** How long `vet` waits for a name to resolve before refusing it, in milliseconds. Default 5000. */
  vetTimeoutMs?: number;
}

/**
 * Core's `WebhookTransport` over node:http(s): signs by Standard Webhooks, refuses forbidden
 * addresses when vetting and again in the socket's own lookup, follows no redirect, and bounds
 * every delivery in time and in bytes read (README.md has the rules).
 */
export function createWebhookTransport(options: WebhookTransportOptions = {}): WebhookTransport {
  const allowPrivate = options.allowPrivate ?? false;
  const timeoutMs = positiveInteger("timeoutMs", options.timeoutMs ?? 15_000);
  const maxResponseBytes = positiveInteger("maxResponseBytes", options.maxResponseBytes ?? 4096);
  const userAgent = options.userAgent ?? "psm-webhooks/1";
  const resolve = options.lookup ?? systemResolver;
  const lookup = guardedLookup(resolve, allowPrivate);
  const vetTimeoutMs = positiveInteger("vetTimeoutMs", options.vetTimeoutMs ?? 5_000);
  const memo = createVerdictMemo();

  return {
    async vet(url: string): Promise<UrlVerdict> {
      const target = parseTarget(url, allowPrivate);
      if (!target.ok) return { allowed: false, reason: target.reason };
      if (target.literal) return { allowed: true };
      const remembered = memo.get(target.host, Date.now());
      if (remembered) return remembered;
      const check = await withDeadline(allowedAddresses(target.host, resolve, allowPrivate), vetTimeoutMs);
      const verdict: UrlVerdict = check.ok ? { allowed: true } : { allowed: false, reason: check.reason };
      memo.set(target.host, verdict, Date.now());
      return verdict;
    },

    async deliver(delivery: OutgoingDelivery): Promise<DeliveryOutcome> {
      const signature = signatureHeaders(delivery);
      // Checked again, not trusted from vet: the URL may have been stored before a rule changed.
      // A name's addresses are checked by `lookup` when the socket connects.
      const target = parseTarget(delivery.url, allowPrivate);
      if (!target.ok) return { kind: "failed", status: null, error: `Refused: ${target.reason}` };
      const headers = {
        ...signature,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(delivery.payload),
        "user-agent": userAgent,
      };
      const result = await exchange(target.url, headers, delivery.payload, {
        timeoutMs,
        maxResponseBytes,
        lookup,
      });
      return outcomeOf(result, Date.now());
    },
  };
}

/**
 * The check, or a refusal once `ms` pass: a name that takes longer to resolve is refused at
 * creation (the lookup itself is left to finish; its answer is dropped).
 */
async function withDeadline<T extends { ok: boolean }>(
  check: Promise<T>,
  ms: number,
): Promise<T | { ok: false; reason: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<{ ok: false; reason: string }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: "its host name did not resolve in time" }), ms);
  });
  try {
    return await Promise.race([check, late]);
  } finally {
    clearTimeout(timer);
  }
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`webhook transport: ${name} must be a positive integer`);
  }
  return value;
}
