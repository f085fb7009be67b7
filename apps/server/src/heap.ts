import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type Collect = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

/**
 * Hands back to the system what loading the server left behind. Resolving the
 * modules allocates about 250 MB that is garbage a moment later (Node's ESM
 * resolver parses drizzle-orm's 180 KB package.json again for each of its
 * files), and V8 grows the young generation to its maximum meanwhile; with no
 * traffic nothing collects it, so an idle server would keep 250 MB resident
 * for 30 MB of live objects. One full, compacting collection that also
 * shrinks the young generation, once, after the server listens, leaves about
 * 100 MB. V8 exposes that collection only as `gc()`, which this borrows for
 * the call (the `expose-gc` package's way) without exposing it to anything else.
 */
export function collectStartupGarbage(): void {
  const exposed = typeof (globalThis as { gc?: unknown }).gc === "function";
  if (!exposed) setFlagsFromString("--expose-gc");
  const collect = runInNewContext("gc") as Collect;
  if (!exposed) setFlagsFromString("--no-expose-gc");
  collect({ type: "major", execution: "sync", flavor: "last-resort" });
}
