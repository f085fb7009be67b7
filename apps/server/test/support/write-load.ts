/** A write load over HTTP (creates and views) that records exactly what the server acknowledged. */
import { Agent } from "node:http";
import { stringAt } from "./http.js";
import { attempt, type Outcome } from "./outcome.js";

/** The record of a write load. */
export interface WriteLoad {
  /** Ids of listings answered 201. */
  created: string[];
  /** Views answered 200, per listing. */
  viewsAcknowledged: Map<string, number>;
  /** Views sent, per listing (an unanswered one may or may not have been counted). */
  viewsSent: Map<string, number>;
  /** Every request's outcome, in settling order. */
  outcomes: Outcome[];
  /** Workers that have had at least one answer: their connection was accepted by the server. */
  served: Set<number>;
  /** Resolves once every worker has stopped (told to, or its server stopped answering). */
  done: Promise<void>;
  /** Tells the workers to stop after their current request, and waits for them. */
  stop(): Promise<void>;
}

/** A listing body; `n` keeps titles apart. */
export function listingBody(n: number): Record<string, unknown> {
  return { title: `Crash test ${n}`, description: "Written under load", category: "cybersecurity", price: n };
}

/**
 * `workers` loops, each alternating a create (with `apiKey`) and a view of
 * one of `targets`, until stopped or until a request gets no answer at all
 * (the server was killed). With `untilRefused`, a loop carries on through
 * other socket errors and only ends on ECONNREFUSED (the drain test wants to
 * see every outcome up to the moment the port closes).
 */
export function startWriteLoad(
  base: string,
  apiKey: string,
  targets: string[],
  workers: number,
  options: { untilRefused?: boolean } = {},
): WriteLoad {
  let stopped = false;
  let serial = 0;
  const load: Omit<WriteLoad, "done" | "stop"> = {
    created: [],
    viewsAcknowledged: new Map(),
    viewsSent: new Map(),
    outcomes: [],
    served: new Set(),
  };
  const record = (w: number, outcome: Outcome) => {
    load.outcomes.push(outcome);
    if (outcome.kind === "answer") load.served.add(w);
    return outcome.kind === "error" && (!options.untilRefused || outcome.code === "ECONNREFUSED");
  };

  const worker = async (w: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await work(w, agent);
    } finally {
      agent.destroy();
    }
  };
  const work = async (w: number, agent: Agent) => {
    for (let i = 0; !stopped; i++) {
      if (i % 2 === 0) {
        const outcome = await attempt(agent, base, "POST", "/api/listings", {
          apiKey,
          body: listingBody(serial++),
        });
        const ended = record(w, outcome);
        const id =
          outcome.kind === "answer" && outcome.status === 201
            ? stringAt(outcome.body, "listing", "id")
            : undefined;
        if (id) load.created.push(id);
        if (ended) return;
      } else {
        const target = targets[(w + i) % targets.length] ?? "";
        load.viewsSent.set(target, (load.viewsSent.get(target) ?? 0) + 1);
        const outcome = await attempt(agent, base, "POST", `/api/listings/${target}/view`);
        const ended = record(w, outcome);
        if (outcome.kind === "answer" && outcome.status === 200) {
          load.viewsAcknowledged.set(target, (load.viewsAcknowledged.get(target) ?? 0) + 1);
        }
        if (ended) return;
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, w) => worker(w))).then(() => undefined);
  return {
    ...load,
    done,
    async stop() {
      stopped = true;
      await done;
    },
  };
}
