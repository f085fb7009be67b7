/** What the soak's clients were told by the server: the record the end checks compare with the database. */
import { type Answer, api, type CallOptions } from "./api.js";

/** Everything acknowledged or refused during a soak. */
export interface Ledger {
  /** Answers per "ACTION STATUS". */
  answers: Map<string, number>;
  /** Every 5xx: action, status and body. */
  serverErrors: string[];
  /** Requests that got no HTTP answer at all (reset, refused, timeout). */
  noAnswer: string[];
  /** Listings answered 201; `gone` once a delete of it (or of its author) was acknowledged. */
  listings: Map<string, { userId: string; gone: boolean }>;
  /** Acknowledged views per listing. */
  views: Map<string, number>;
  /** Messages answered 201. */
  messages: Set<string>;
  /** API keys created; `inactive` once a deactivation was acknowledged. */
  keys: Map<string, { userId: string; inactive: boolean }>;
  /** Users whose deletion was acknowledged. */
  deletedUsers: Set<string>;
}

/** An empty ledger. */
export function newLedger(): Ledger {
  return {
    answers: new Map(),
    serverErrors: [],
    noAnswer: [],
    listings: new Map(),
    views: new Map(),
    messages: new Set(),
    keys: new Map(),
    deletedUsers: new Set(),
  };
}

/** Total answers recorded. */
export function answered(ledger: Ledger): number {
  let total = 0;
  for (const n of ledger.answers.values()) total += n;
  return total;
}

/**
 * One request, recorded: every answer by action and status, 5xx and missing
 * answers kept for the report. Null when there was no answer.
 */
export async function send(
  ledger: Ledger,
  base: string,
  action: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer | null> {
  try {
    const answer = await api(base, method, path, options);
    const key = `${action} ${answer.status}`;
    ledger.answers.set(key, (ledger.answers.get(key) ?? 0) + 1);
    if (answer.status >= 500)
      ledger.serverErrors.push(`${action}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer;
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    ledger.noAnswer.push(`${action} ${method} ${path}: ${String(error)}${cause}`);
    return null;
  }
}
