/** The two ceilings of a run: bare node:http servers answering a hello and our own page from memory. */
import { type LoadSettings, type Measurement, measure } from "./load.js";
import { CEILING_NAMES, type Row } from "./report.js";
import { startBareServer } from "./server.js";

/** One measurement of both ceilings. */
export interface CeilingFigures {
  hello: Measurement;
  payload: Measurement;
}

/** The running ceiling servers. */
export interface Ceilings {
  measure(): Promise<CeilingFigures>;
  /** One round of each (1 s warm-up), to pair with the endpoints measured around it. */
  quick(): Promise<{ hello: number; payload: number }>;
  stop(): Promise<void>;
}

/** Starts both bare servers; the payload one serves the bytes of `pageFile`. */
export async function startCeilings(
  pageFile: string,
  settings: LoadSettings,
  log: (line: string) => void,
): Promise<Ceilings> {
  const hello = await startBareServer();
  const payload = await startBareServer(pageFile);
  const both = async (with_: LoadSettings, label: string) => {
    const h = await measure(hello.url, { name: CEILING_NAMES.hello, paths: ["/"] }, with_);
    const p = await measure(payload.url, { name: CEILING_NAMES.payload, paths: ["/api/listings"] }, with_);
    log(
      `ceiling${label} hello ${h.rps.toFixed(0)} req/s (p99 ${h.p99} ms), page ${p.rps.toFixed(0)} req/s (p99 ${p.p99} ms)`,
    );
    return { hello: h, payload: p };
  };
  return {
    measure: () => both(settings, "  "),
    async quick() {
      const { hello: h, payload: p } = await both(
        { ...settings, warmup: 1, rounds: 1 },
        "s between endpoints:",
      );
      return { hello: h.rps, payload: p.rps };
    },
    async stop() {
      await Promise.all([hello.stop(), payload.stop()]);
    },
  };
}

const better = (a: Measurement, b: Measurement | undefined) => (b && b.rps > a.rps ? b : a);

/**
 * The ceilings the ratios use: of the measurements at the start and at the
 * end of the run, the faster one, so that a neighbour's load during one of
 * them can only make our ratios look worse, never better.
 */
export function bestCeilings(start: CeilingFigures, end: CeilingFigures | undefined): Row[] {
  const row = (endpoint: string, m: Measurement): Row => ({
    backend: "ceiling",
    endpoint,
    rps: m.rps,
    p50: m.p50,
    p99: m.p99,
    failures: m.rounds.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  });
  return [
    row(CEILING_NAMES.hello, better(start.hello, end?.hello)),
    row(CEILING_NAMES.payload, better(start.payload, end?.payload)),
  ];
}
