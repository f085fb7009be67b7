/** A health probe running beside an attack: how long each `GET /healthz` waited for its answer. */
export interface Probe {
  /** Stops the probe and returns every latency measured, in milliseconds. */
  stop(): Promise<number[]>;
}

/** Asks `${url}/healthz` again and again, one request at a time, a few milliseconds apart. */
export function startProbe(url: string): Probe {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await (await fetch(`${url}/healthz`)).arrayBuffer();
        latencies.push(performance.now() - started);
      } catch {
        latencies.push(Number.POSITIVE_INFINITY); // no answer at all: the worst wait there is
        running = false;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

/** The `p`th percentile of `values`. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}
