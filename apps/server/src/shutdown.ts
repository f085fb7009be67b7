import type { Server, ServerResponse } from "node:http";
import { Server as NetServer } from "node:net";

/**
 * Graceful shutdown of an HTTP server without resetting anyone's request.
 * Call at start, so responses in flight are known when the signal comes.
 *
 * `drain` stops accepting connections, answers every request still in flight
 * or arriving on an open keep-alive connection with `Connection: close` (the
 * client then opens a new connection, which is refused, instead of reusing a
 * socket we are about to close), lets idle sockets end by the keep-alive
 * timeout, and after `graceMs` cuts what is left. http.Server#close is not
 * used because it closes idle keep-alive sockets at once, racing clients
 * that are sending on them at that moment.
 */
export function createDrainer(server: Server): { drain(graceMs: number): Promise<void> } {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.on("request", (_req, res: ServerResponse) => {
    if (draining) res.setHeader("Connection", "close");
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
  });
  return {
    drain(graceMs: number): Promise<void> {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
      return new Promise((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        NetServer.prototype.close.call(server, () => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}

/** Runs `shutdown` once on the first SIGTERM or SIGINT, then exits with its code. */
export function onSignals(shutdown: (signal: string) => Promise<number>): void {
  let started = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (started) return;
      started = true;
      shutdown(signal).then(
        (code) => process.exit(code),
        () => process.exit(1),
      );
    });
  }
}

/**
 * Whether `work` settles within `ms`: a stop waits for what it must finish (views written after
 * their pages) without a database that stopped answering holding the process forever.
 */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
