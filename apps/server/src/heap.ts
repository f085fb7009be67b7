import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type Collect = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

/**
 * One full, compacting collection that also shrinks the young generation and hands the freed
 * pages back to the system. V8 exposes it only as `gc()`, which this borrows for the call (the
 * `expose-gc` package's way) without exposing it to anything else. It takes 20-200 ms.
 */
export function returnFreeMemory(): void {
  const exposed = typeof (globalThis as { gc?: unknown }).gc === "function";
  if (!exposed) setFlagsFromString("--expose-gc");
  const collect = runInNewContext("gc") as Collect;
  if (!exposed) setFlagsFromString("--no-expose-gc");
  collect({ type: "major", execution: "sync", flavor: "last-resort" });
}

/**
 * Hands back what loading the server left behind, at its first quiet `quietMs` after it listens.
 * Resolving the modules allocates well over 100 MB that is garbage a moment later, and V8 grows
 * the young generation meanwhile; with no traffic nothing collects it, so an idle server kept
 * 250 MB resident for 30 MB of live objects (issue 30, footprint). Not at the listen itself: the
 * collection (two compacting passes, 50-150 ms) would hold up the first requests, which a server
 * that has just started (a deploy, a restart behind a load balancer) gets at once. Once only:
 * after traffic, collectWhenIdle() takes over.
 */
export function collectStartupGarbage(
  quietMs: number,
  collect: () => void = returnFreeMemory,
): IdleCollector {
  return collectWhenIdle(quietMs, collect, { owedAtStart: true, once: true });
}

/** Tells the collector of requests; stop() ends its timer. */
export interface IdleCollector {
  /** A request was answered. */
  touch(): void;
  stop(): void;
}

/**
 * After traffic, once a whole `quietMs` passes without a request, returns the memory the
 * traffic left (a server keeps its loaded heap otherwise: 270 MiB instead of 175 after the
 * benchmark's load). Never while requests come, and once per quiet spell. `owedAtStart`: a
 * collection is owed before any request; `once`: the first collection is the last.
 */
export function collectWhenIdle(
  quietMs: number,
  collect: () => void = returnFreeMemory,
  options: { owedAtStart?: boolean; once?: boolean } = {},
): IdleCollector {
  let sinceCheck = false;
  let sinceCollection = options.owedAtStart ?? false;
  const timer = setInterval(() => {
    if (sinceCheck) {
      sinceCheck = false;
      return;
    }
    if (!sinceCollection) return;
    sinceCollection = false;
    if (options.once) clearInterval(timer);
    collect();
  }, quietMs);
  timer.unref();
  return {
    touch() {
      sinceCheck = true;
      sinceCollection = true;
    },
    stop: () => clearInterval(timer),
  };
}
