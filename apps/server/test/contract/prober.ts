/**
 * A health prober in a worker thread of its own: the test's own event loop is busy building
 * 200 KB strings and bodies, so a probe timed there would measure the test, not the server.
 */
import { Worker } from "node:worker_threads";

/** What a run of probes saw: the slowest answer (ms), how many were sent, which failed. */
export interface ProbeFigures {
  maxMs: number;
  count: number;
  failures: string[];
}

// Plain JavaScript, evaluated as the worker's script.
const PROBER = `
const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
const target = workerData.url + "/healthz";
let running = false;
async function probe(figures) {
  const started = performance.now();
  try {
    const res = await fetch(target);
    await res.text();
    if (res.status !== 200) figures.failures.push("status " + res.status);
  } catch (error) {
    figures.failures.push(String(error));
  }
  figures.maxMs = Math.max(figures.maxMs, performance.now() - started);
  figures.count += 1;
}
parentPort.on("message", async (command) => {
  const figures = { maxMs: 0, count: 0, failures: [] };
  if (command.kind === "idle") {
    for (let i = 0; i < command.probes; i++) await probe(figures);
    parentPort.postMessage(figures);
  } else if (command.kind === "start") {
    running = true;
    while (running) {
      const started = performance.now();
      await probe(figures);
      await new Promise((done) => setTimeout(done, Math.max(0, workerData.everyMs - (performance.now() - started))));
    }
    parentPort.postMessage(figures);
  } else if (command.kind === "stop") {
    running = false;
  }
});
`;

/** Probes `url`/healthz: `idle` sequential probes now, or one every `everyMs` between start and stop. */
export interface Prober {
  idle(probes: number): Promise<ProbeFigures>;
  start(): void;
  stop(): Promise<ProbeFigures>;
  close(): Promise<void>;
}

/** Starts the prober's worker. */
export function startProber(url: string, everyMs = 50): Prober {
  const worker = new Worker(PROBER, { eval: true, workerData: { url, everyMs } });
  const next = () =>
    new Promise<ProbeFigures>((done, fail) => {
      worker.once("message", done);
      worker.once("error", fail);
    });
  let loaded: Promise<ProbeFigures> | undefined;
  return {
    idle(probes) {
      const figures = next();
      worker.postMessage({ kind: "idle", probes });
      return figures;
    },
    start() {
      loaded = next();
      worker.postMessage({ kind: "start" });
    },
    stop() {
      if (loaded === undefined) throw new Error("the prober was not started");
      worker.postMessage({ kind: "stop" });
      return loaded;
    },
    async close() {
      await worker.terminate();
    },
  };
}
